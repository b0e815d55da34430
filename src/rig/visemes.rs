//! Lip-sync from text (the animation talk: "bei synthetischer Stimme"): a
//! sentence turned into a track of visemes — the mouth shapes of speech —
//! by a few letter rules per language and a duration per shape.
//!
//! Rules, first match wins, on the lower-cased text: the language's
//! digraphs (German `sch`, `ei`, `au`, `eu`, `ie`; English `th`, `sh`,
//! `ch`, `oo`, `ee`), then single letters: vowels to their open shapes,
//! `m b p` to closed lips, `f v` (and German `w`) to the lip-teeth shape,
//! English `w` and `q` to rounded lips, other letters to a brief half-open
//! mouth. Spaces and punctuation are rests. A shape repeated by the next
//! letter is held, not said twice.

/// The mouth shapes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viseme {
    /// Closed and relaxed: between words.
    Rest,
    /// Open wide: `a`.
    A,
    /// Open, spread: `e`.
    E,
    /// Nearly closed, spread: `i`, `y`.
    I,
    /// Rounded, open: `o`.
    O,
    /// Rounded, small: `u`, `w`.
    U,
    /// Lips pressed: `m`, `b`, `p`.
    Mbp,
    /// Lower lip to the teeth: `f`, `v`.
    Fv,
    /// Slightly open for the other consonants (`t`, `d`, `s`, `n`, `k`, …).
    Consonant,
}

impl Viseme {
    /// The name the page and the API use.
    pub fn name(self) -> &'static str {
        match self {
            Self::Rest => "rest",
            Self::A => "A",
            Self::E => "E",
            Self::I => "I",
            Self::O => "O",
            Self::U => "U",
            Self::Mbp => "MBP",
            Self::Fv => "FV",
            Self::Consonant => "C",
        }
    }

    /// How long the shape is held, seconds: vowels longest, the closures
    /// and short consonants briefer.
    pub fn seconds(self) -> f32 {
        match self {
            Self::A | Self::E | Self::I | Self::O | Self::U => 0.14,
            Self::Mbp | Self::Fv => 0.09,
            Self::Consonant => 0.06,
            Self::Rest => 0.1,
        }
    }
}

/// A language the rules know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpeechLanguage {
    /// English.
    En,
    /// German.
    De,
}

impl SpeechLanguage {
    /// `"en"` or `"de"` (a region such as `"de-AT"` is read as its language).
    pub fn from_code(code: &str) -> Option<Self> {
        match code.get(..2).map(str::to_ascii_lowercase).as_deref() {
            Some("en") => Some(Self::En),
            Some("de") => Some(Self::De),
            _ => None,
        }
    }
}

/// One shape of the track.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VisemeKey {
    /// When it starts, seconds.
    pub time: f32,
    /// How long it lasts, seconds.
    pub duration: f32,
    /// The shape.
    pub viseme: Viseme,
    /// The index (in characters) of the text where it comes from.
    pub char_index: usize,
}

/// The most characters turned into a track.
pub const MAX_SPEECH_CHARS: usize = 2000;

/// A sentence's end: a longer rest.
const SENTENCE_REST: f32 = 0.3;

/// The shapes of the letters at the start of `rest` and how many letters
/// they use.
fn shapes(rest: &[char], language: SpeechLanguage) -> (Vec<Viseme>, usize) {
    use Viseme::*;
    let starts = |pattern: &str| {
        let pattern: Vec<char> = pattern.chars().collect();
        rest.len() >= pattern.len() && rest[..pattern.len()] == pattern[..]
    };
    let digraphs: &[(&str, &[Viseme])] = match language {
        SpeechLanguage::De => &[
            ("sch", &[U]),
            ("ei", &[A, I]),
            ("ai", &[A, I]),
            ("au", &[A, U]),
            ("eu", &[O, I]),
            ("äu", &[O, I]),
            ("ie", &[I]),
            ("ch", &[Consonant]),
            ("ph", &[Fv]),
        ],
        SpeechLanguage::En => &[
            ("th", &[Consonant]),
            ("sh", &[U]),
            ("ch", &[U]),
            ("oo", &[U]),
            ("ee", &[I]),
            ("ea", &[I]),
            ("ou", &[A, U]),
            ("ow", &[A, U]),
            ("ph", &[Fv]),
        ],
    };
    for (pattern, visemes) in digraphs {
        if starts(pattern) {
            return (visemes.to_vec(), pattern.chars().count());
        }
    }
    let shape = match rest[0] {
        'a' | 'ä' | 'á' | 'à' => A,
        'e' | 'é' | 'è' => E,
        'i' | 'y' | 'í' => I,
        'o' | 'ö' | 'ó' => O,
        'u' | 'ü' | 'ú' => U,
        'm' | 'b' | 'p' => Mbp,
        'f' | 'v' => Fv,
        'w' if language == SpeechLanguage::De => Fv,
        'w' | 'q' => U,
        c if c.is_alphabetic() => Consonant,
        c if c.is_numeric() => Consonant,
        _ => Rest,
    };
    (vec![shape], 1)
}

/// The track of `text` in `language`: shapes one after the other from time
/// 0, a rest at each space and a longer one at `.`, `!`, `?`, a rest last.
/// Text past [`MAX_SPEECH_CHARS`] characters is left out.
pub fn viseme_track(text: &str, language: SpeechLanguage) -> Vec<VisemeKey> {
    let chars: Vec<char> = text
        .chars()
        .take(MAX_SPEECH_CHARS)
        .flat_map(char::to_lowercase)
        .collect();
    let mut track: Vec<VisemeKey> = Vec::new();
    let mut time = 0.0_f32;
    let mut at = 0;
    let mut push = |viseme: Viseme, duration: f32, char_index: usize, time: &mut f32| {
        match track.last_mut() {
            // Held, not said twice: "mm", a run of spaces.
            Some(last) if last.viseme == viseme => last.duration += duration,
            _ => track.push(VisemeKey {
                time: *time,
                duration,
                viseme,
                char_index,
            }),
        }
        *time += duration;
    };
    while at < chars.len() {
        let c = chars[at];
        if matches!(c, '.' | '!' | '?' | ';' | ':') {
            push(Viseme::Rest, SENTENCE_REST, at, &mut time);
            at += 1;
            continue;
        }
        let (visemes, used) = shapes(&chars[at..], language);
        for viseme in visemes {
            push(viseme, viseme.seconds(), at, &mut time);
        }
        at += used;
    }
    push(Viseme::Rest, Viseme::Rest.seconds(), chars.len(), &mut time);
    track
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shapes_of(text: &str, language: SpeechLanguage) -> Vec<&'static str> {
        viseme_track(text, language)
            .iter()
            .map(|k| k.viseme.name())
            .collect()
    }

    #[test]
    fn mama_alternates_closed_lips_and_open_mouth() {
        assert_eq!(
            shapes_of("mama", SpeechLanguage::En),
            ["MBP", "A", "MBP", "A", "rest"]
        );
    }

    #[test]
    fn times_increase_and_cover_the_sentence() {
        let track = viseme_track("Hello, world. Wie geht's?", SpeechLanguage::En);
        for pair in track.windows(2) {
            assert!(pair[1].time > pair[0].time);
            assert!((pair[0].time + pair[0].duration - pair[1].time).abs() < 1e-6);
        }
        assert_eq!(track[0].time, 0.0);
        assert_eq!(track.last().unwrap().viseme, Viseme::Rest);
        assert!(track.last().unwrap().char_index >= 24);
    }

    #[test]
    fn each_language_has_its_own_digraphs() {
        assert_eq!(shapes_of("ei", SpeechLanguage::De), ["A", "I", "rest"]);
        assert_eq!(shapes_of("wo", SpeechLanguage::De), ["FV", "O", "rest"]);
        assert_eq!(shapes_of("wo", SpeechLanguage::En), ["U", "O", "rest"]);
        assert_eq!(
            shapes_of("moon", SpeechLanguage::En),
            ["MBP", "U", "C", "rest"]
        );
        assert_eq!(SpeechLanguage::from_code("de-AT"), Some(SpeechLanguage::De));
        assert_eq!(SpeechLanguage::from_code("fr"), None);
    }
}
