//! Lip-sync in the lab: a sentence's viseme track keyed as the clip
//! "speech" on a face's morph targets and jaw, each shape keyed at its
//! middle so that neighbouring shapes blend (co-articulation) under linear
//! interpolation.

use glam::Vec3;

use super::{EditError, Lab};
use crate::rig::animation::{Clip, Interpolation};
use crate::rig::loudness::{loudness, openness, MAX_RECORDING_SAMPLES};
use crate::rig::pose::BoneTransform;
use crate::rig::visemes::{viseme_track, SpeechLanguage, Viseme, VisemeKey};
use crate::scene::SceneError;

/// The clip a said sentence is keyed as.
pub const SPEECH_CLIP: &str = "speech";

/// The clip a recording is keyed as.
pub const RECORDING_CLIP: &str = "recording";

/// Seconds per loudness window of a recording: 30 keys a second.
pub const RECORDING_WINDOW: f32 = 1.0 / 30.0;

/// How far the jaw opens at full loudness, model units along its +Y.
const JAW_OPEN: f32 = 0.12;

/// Each shape as the face example's targets make it (a target a shape;
/// a scene with only some of them gets what it has) and its jaw's opening
/// (model units along the jaw's +Y).
fn recipe(viseme: Viseme) -> (&'static [(&'static str, f32)], f32) {
    match viseme {
        Viseme::Rest => (&[], 0.0),
        Viseme::A => (&[("A", 1.0)], 0.12),
        Viseme::E => (&[("E", 1.0)], 0.06),
        Viseme::I => (&[("I", 1.0)], 0.02),
        Viseme::O => (&[("O", 1.0)], 0.08),
        Viseme::U => (&[("U", 1.0)], 0.03),
        Viseme::Mbp => (&[("M", 1.0)], 0.0),
        Viseme::Fv => (&[("F", 1.0)], 0.01),
        Viseme::Consonant => (&[("E", 0.35)], 0.03),
    }
}

impl Lab {
    /// The bone named "jaw", if any.
    fn jaw_bone(&self) -> Option<usize> {
        self.scene
            .skeleton
            .bones()
            .iter()
            .position(|b| b.name == "jaw")
    }

    /// The jaw bone and the "A" target, if the face has them; refuses a
    /// scene with neither.
    fn mouth_parts(&self) -> Result<(Option<usize>, Option<usize>), EditError> {
        let jaw = self.jaw_bone();
        let open = self.scene.morphs.iter().position(|m| m.name == "A");
        if jaw.is_none() && open.is_none() {
            return Err(SceneError::WrongLength {
                field: "morph targets".to_owned(),
                expected: "a target named A or a bone named jaw".to_owned(),
                found: 0,
            }
            .into());
        }
        Ok((jaw, open))
    }

    /// Keys a recording (mono `samples` at `sample_rate` per second) as the
    /// clip "recording" (replacing an earlier one): every
    /// [`RECORDING_WINDOW`] the jaw opens and the "A" target weighs in by
    /// the window's openness (see [`crate::rig::loudness`]). Returns the
    /// clip and the openness of each window.
    pub fn say_recording(
        &mut self,
        samples: &[f32],
        sample_rate: f32,
    ) -> Result<(usize, Vec<f32>), EditError> {
        let (jaw, open) = self.mouth_parts()?;
        if !sample_rate.is_finite() || sample_rate < 1.0 {
            return Err(SceneError::NotPositive {
                field: "sampleRate".to_owned(),
                value: sample_rate,
            }
            .into());
        }
        let samples = &samples[..samples.len().min(MAX_RECORDING_SAMPLES)];
        let window = (sample_rate * RECORDING_WINDOW).round().max(1.0) as usize;
        let openness = openness(&loudness(samples, window));
        let mut clip = Clip::new(RECORDING_CLIP);
        let targets = self.scene.morphs.len();
        for (k, &o) in openness.iter().enumerate() {
            // Each window keyed at its middle.
            let time = (k as f32 + 0.5) * window as f32 / sample_rate;
            if let Some(a) = open {
                let mut weights = vec![0.0; targets];
                weights[a] = o;
                clip.set_weights_key(time, &weights, Interpolation::Linear);
            }
            if let Some(jaw) = jaw {
                let opening = BoneTransform {
                    translation: Vec3::new(0.0, JAW_OPEN * o, 0.0),
                    ..BoneTransform::IDENTITY
                };
                clip.set_key(jaw, time, &opening, Interpolation::Linear);
            }
        }
        let index = self.replace_clip(clip);
        Ok((index, openness))
    }

    /// Puts `clip` in place of the clip of the same name, or adds it.
    fn replace_clip(&mut self, clip: Clip) -> usize {
        let clips = &mut self.scene.animation.clips;
        let index = match clips.iter().position(|c| c.name == clip.name) {
            Some(k) => {
                clips[k] = clip;
                k
            }
            None => {
                clips.push(clip);
                clips.len() - 1
            }
        };
        self.changed();
        index
    }

    /// Keys `text` (in `language`) as the clip "speech" (replacing an
    /// earlier one): the morph weights and the jaw of each viseme of
    /// [`viseme_track`] at its middle, at rest before and after. Returns
    /// the clip and the track.
    pub fn say_text(
        &mut self,
        text: &str,
        language: SpeechLanguage,
    ) -> Result<(usize, Vec<VisemeKey>), EditError> {
        let names: Vec<&str> = self.scene.morphs.iter().map(|m| m.name.as_str()).collect();
        let jaw = self.jaw_bone();
        let shapes = ["A", "E", "I", "O", "U", "M", "F"];
        if jaw.is_none() && !names.iter().any(|n| shapes.contains(n)) {
            return Err(SceneError::WrongLength {
                field: "morph targets".to_owned(),
                expected: "targets named A, E, I, O, U, M or F, or a bone named jaw".to_owned(),
                found: 0,
            }
            .into());
        }
        let track = viseme_track(text, language);
        let mut clip = Clip::new(SPEECH_CLIP);
        let key = |time: f32, viseme: Viseme, clip: &mut Clip| {
            let (weights_of, opening) = recipe(viseme);
            let mut weights = vec![0.0_f32; names.len()];
            for (name, weight) in weights_of {
                if let Some(k) = names.iter().position(|n| n == name) {
                    weights[k] = *weight;
                }
            }
            if !weights.is_empty() {
                clip.set_weights_key(time, &weights, Interpolation::Linear);
            }
            if let Some(jaw) = jaw {
                let open = BoneTransform {
                    translation: Vec3::new(0.0, opening, 0.0),
                    ..BoneTransform::IDENTITY
                };
                clip.set_key(jaw, time, &open, Interpolation::Linear);
            }
        };
        key(0.0, Viseme::Rest, &mut clip);
        for shape in &track {
            key(shape.time + shape.duration / 2.0, shape.viseme, &mut clip);
        }
        if let Some(last) = track.last() {
            key(last.time + last.duration, Viseme::Rest, &mut clip);
        }
        Ok((self.replace_clip(clip), track))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_face_says_mama_with_closed_lips_then_an_open_jaw() {
        let mut lab = Lab::example("face").unwrap();
        let (clip, track) = lab.say_text("mama", SpeechLanguage::En).unwrap();
        assert_eq!(lab.animation_names()[clip], SPEECH_CLIP);
        let middle = |k: usize| track[k].time + track[k].duration / 2.0;
        let m = lab
            .scene()
            .morphs
            .iter()
            .position(|t| t.name == "M")
            .unwrap();
        let a = lab
            .scene()
            .morphs
            .iter()
            .position(|t| t.name == "A")
            .unwrap();
        lab.set_animation_time(clip, middle(0)).unwrap();
        assert!((lab.scene().morph_weights[m] - 1.0).abs() < 1e-5);
        lab.set_animation_time(clip, middle(1)).unwrap();
        assert!((lab.scene().morph_weights[a] - 1.0).abs() < 1e-5);
        assert!(
            lab.bone_pose(1).unwrap().translation.y > 0.1,
            "the jaw drops"
        );
        // Between the two, both shapes blend.
        lab.set_animation_time(clip, (middle(0) + middle(1)) / 2.0)
            .unwrap();
        let w = &lab.scene().morph_weights;
        assert!(w[m] > 0.2 && w[a] > 0.2, "{w:?}");
    }

    #[test]
    fn a_recording_opens_the_jaw_where_it_is_loud() {
        let mut lab = Lab::example("face").unwrap();
        let rate = 16_000.0;
        // Loud for 0.3 s, silent for 0.3 s, loud again.
        let samples: Vec<f32> = (0..14_400)
            .map(|k| {
                let t = k as f32 / rate;
                if (t / 0.3) as usize % 2 == 0 {
                    0.4 * (std::f32::consts::TAU * 180.0 * t).sin()
                } else {
                    0.001 * (std::f32::consts::TAU * 50.0 * t).sin()
                }
            })
            .collect();
        let (clip, openness) = lab.say_recording(&samples, rate).unwrap();
        assert_eq!(lab.animation_names()[clip], RECORDING_CLIP);
        assert_eq!(
            openness.len(),
            14_400_usize.div_ceil(533),
            "a window every 533 samples"
        );
        lab.set_animation_time(clip, 0.15).unwrap();
        assert!(
            lab.bone_pose(1).unwrap().translation.y > 0.1,
            "open on the sound"
        );
        lab.set_animation_time(clip, 0.45).unwrap();
        assert!(
            lab.bone_pose(1).unwrap().translation.y < 0.01,
            "closed in the silence"
        );
        assert!(lab.say_recording(&samples, 0.0).is_err());
    }

    #[test]
    fn a_scene_without_a_mouth_is_refused() {
        let mut lab = Lab::example("two-bone").unwrap();
        assert!(lab.say_text("hello", SpeechLanguage::En).is_err());
    }
}
