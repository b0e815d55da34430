//! Random damage to a scene file or a glTF file gives an error or a scene,
//! never a panic.
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;

use proptest::prelude::*;
use serde_json::Value;
use skinlab::{Lab, SkinningMethod};

/// Every number in `value`, by path, so one can be replaced.
fn number_slots(value: &Value, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match value {
        Value::Number(_) => out.push(path.clone()),
        Value::Array(items) => {
            for (k, item) in items.iter().enumerate() {
                path.push(k.to_string());
                number_slots(item, path, out);
                path.pop();
            }
        }
        Value::Object(map) => {
            for (key, item) in map {
                path.push(key.clone());
                number_slots(item, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

fn slot<'a>(value: &'a mut Value, path: &[String]) -> &'a mut Value {
    path.iter().fold(value, |v, key| match v {
        Value::Array(items) => &mut items[key.parse::<usize>().unwrap()],
        Value::Object(map) => map.get_mut(key).unwrap(),
        _ => unreachable!(),
    })
}

fn damaged() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::from(-1)),
        Just(Value::from(0)),
        Just(Value::from(7)),
        Just(Value::from(u32::MAX)),
        Just(Value::from(u64::MAX)),
        Just(Value::from(1e39)),
        Just(Value::from(-2.5)),
        Just(Value::from(0.5)),
        Just(Value::Null),
        Just(Value::from("x")),
        Just(Value::Array(vec![])),
    ]
}

fn damage(text: &str, picks: &[(prop::sample::Index, Value)]) -> String {
    let mut doc: Value = serde_json::from_str(text).unwrap();
    let mut slots = Vec::new();
    number_slots(&doc, &mut Vec::new(), &mut slots);
    for (index, replacement) in picks {
        let path = &slots[index.index(slots.len())];
        *slot(&mut doc, path) = replacement.clone();
    }
    doc.to_string()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn a_damaged_scene_never_panics(picks in proptest::collection::vec((any::<prop::sample::Index>(), damaged()), 1..4)) {
        let text = damage(&Lab::example("y-junction").unwrap().scene_json(), &picks);
        if let Ok(lab) = Lab::from_json(&text) {
            let _ = lab.skinned_positions(SkinningMethod::Dqs);
        }
    }

    #[test]
    fn a_damaged_gltf_never_panics(picks in proptest::collection::vec((any::<prop::sample::Index>(), damaged()), 1..4)) {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("www/models/SimpleSkin/SimpleSkin.gltf");
        let text = damage(&std::fs::read_to_string(path).unwrap(), &picks);
        if let Ok(lab) = Lab::from_gltf(&text) {
            let _ = lab.skinned_positions(SkinningMethod::Lbs);
        }
    }
}
