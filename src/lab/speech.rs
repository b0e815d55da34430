//! Lip-sync in the lab: a sentence's viseme track keyed as the clip
//! "speech" on a face's morph targets and jaw, each shape keyed at its
//! middle so that neighbouring shapes blend (co-articulation) under linear
//! interpolation.

use glam::Vec3;

use super::{EditError, Lab};
use crate::rig::animation::{Clip, Interpolation};
use crate::rig::pose::BoneTransform;
use crate::rig::visemes::{viseme_track, SpeechLanguage, Viseme, VisemeKey};
use crate::scene::SceneError;

/// The clip a said sentence is keyed as.
pub const SPEECH_CLIP: &str = "speech";

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
        let jaw = self
            .scene
            .skeleton
            .bones()
            .iter()
            .position(|b| b.name == "jaw");
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
        let clips = &mut self.scene.animation.clips;
        let index = match clips.iter().position(|c| c.name == SPEECH_CLIP) {
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
        Ok((index, track))
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
    fn a_scene_without_a_mouth_is_refused() {
        let mut lab = Lab::example("two-bone").unwrap();
        assert!(lab.say_text("hello", SpeechLanguage::En).is_err());
    }
}
