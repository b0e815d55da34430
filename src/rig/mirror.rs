//! Left and right twins by name, as Blender's X-axis mirror pairs them:
//! `LeftArm`/`RightArm` (also after a namespace, `mixamorig:LeftArm`),
//! `left_arm`/`right_arm`, and a side mark at the end (`arm.L`/`arm.R`,
//! `arm_l`/`arm_r`, `arm-L`/`arm-R`), at the start (`L_arm`/`R_arm`) or
//! between separators (`J_Bip_L_UpperArm`).

/// The name of `name`'s twin on the other side, or `None` when the name
/// marks no side.
pub fn mirrored_name(name: &str) -> Option<String> {
    side_word(name)
        .or_else(|| side_suffix(name))
        .or_else(|| side_prefix(name))
        .or_else(|| side_between(name))
}

/// The index of `bone`'s twin among `names` (the bone named
/// [`mirrored_name`] of its name), if there is one.
pub fn twin_of<S: AsRef<str>>(names: &[S], bone: usize) -> Option<usize> {
    let wanted = mirrored_name(names.get(bone)?.as_ref())?;
    names.iter().position(|n| n.as_ref() == wanted)
}

/// "Left"/"Right" as a word: at the start of the name or of its part after
/// a namespace (`:`), after a separator, or capitalised after a small
/// letter (`FrontLeftPaw`), followed by a capital letter, a digit, a
/// separator or the end.
fn side_word(name: &str) -> Option<String> {
    const WORDS: [(&str, &str); 6] = [
        ("Left", "Right"),
        ("Right", "Left"),
        ("left", "right"),
        ("right", "left"),
        ("LEFT", "RIGHT"),
        ("RIGHT", "LEFT"),
    ];
    for (at, _) in name.char_indices() {
        let before = name[..at].chars().next_back();
        let after_separator = before.is_none_or(|c| matches!(c, ':' | '_' | '.' | '-' | ' '));
        // A capital after a small letter starts a word too: FrontLeftPaw.
        let camel = before.is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
        for (word, other) in WORDS {
            let capital = word.starts_with(|c: char| c.is_ascii_uppercase());
            if !(after_separator || (camel && capital)) {
                continue;
            }
            let Some(rest) = name[at..].strip_prefix(word) else {
                continue;
            };
            let ends_word = rest.chars().next().is_none_or(|c| {
                c.is_ascii_uppercase() || c.is_ascii_digit() || !c.is_alphanumeric()
            });
            if ends_word {
                return Some(format!("{}{other}{rest}", &name[..at]));
            }
        }
    }
    None
}

/// A side mark at the end: `.L`, `_L`, `-L`, ` L` (either case).
fn side_suffix(name: &str) -> Option<String> {
    let (stem, mark) = name.split_at(name.len().checked_sub(2)?);
    let mut chars = mark.chars();
    let (separator, side) = (chars.next()?, chars.next()?);
    if !matches!(separator, '.' | '_' | '-' | ' ') || stem.is_empty() {
        return None;
    }
    Some(format!("{stem}{separator}{}", other_side(side)?))
}

/// A side mark at the start: `L_`, `R.`, `l-` (either case).
fn side_prefix(name: &str) -> Option<String> {
    let mut chars = name.chars();
    let (side, separator) = (chars.next()?, chars.next()?);
    let rest = chars.as_str();
    if !matches!(separator, '.' | '_' | '-' | ' ') || rest.is_empty() {
        return None;
    }
    Some(format!("{}{separator}{rest}", other_side(side)?))
}

/// A side letter between two separators: VRM's `J_Bip_L_UpperArm`.
fn side_between(name: &str) -> Option<String> {
    let bytes = name.as_bytes();
    let is_separator = |b: u8| matches!(b, b'.' | b'_' | b'-' | b' ');
    (1..bytes.len().saturating_sub(1)).find_map(|at| {
        if !is_separator(bytes[at - 1]) || !is_separator(bytes[at + 1]) {
            return None;
        }
        let side = other_side(char::from(bytes[at]))?;
        Some(format!("{}{side}{}", &name[..at], &name[at + 1..]))
    })
}

fn other_side(side: char) -> Option<char> {
    match side {
        'L' => Some('R'),
        'R' => Some('L'),
        'l' => Some('r'),
        'r' => Some('l'),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twins_by_the_names_exporters_write() {
        for (name, twin) in [
            ("LeftArm", "RightArm"),
            ("mixamorig:RightHandIndex1", "mixamorig:LeftHandIndex1"),
            ("left_foot", "right_foot"),
            ("J_Bip_L_UpperArm", "J_Bip_R_UpperArm"),
            ("upper_arm.L", "upper_arm.R"),
            ("forearm.r", "forearm.l"),
            ("thigh_L", "thigh_R"),
            ("Hand-R", "Hand-L"),
            ("L_Eye", "R_Eye"),
            ("LEFT_TOE", "RIGHT_TOE"),
            ("Left", "Right"),
            ("FrontLeftUpLeg", "FrontRightUpLeg"),
        ] {
            assert_eq!(mirrored_name(name).as_deref(), Some(twin), "{name}");
            assert_eq!(mirrored_name(twin).as_deref(), Some(name), "{twin}");
        }
    }

    #[test]
    fn names_that_mark_no_side() {
        for name in [
            "Spine",
            "Leftover",
            "Brightness",
            "Hips",
            "L",
            "Bone.001",
            "Ral",
            ".L",
            "Lid",
        ] {
            assert_eq!(mirrored_name(name), None, "{name}");
        }
    }

    #[test]
    fn a_twin_among_the_bones() {
        let names = ["Hips", "LeftLeg", "RightLeg", "Tail"];
        assert_eq!(twin_of(&names, 1), Some(2));
        assert_eq!(twin_of(&names, 2), Some(1));
        assert_eq!(twin_of(&names, 0), None);
        assert_eq!(twin_of(&["arm.L"], 0), None, "no bone of the twin's name");
        assert_eq!(twin_of(&names, 9), None);
    }
}
