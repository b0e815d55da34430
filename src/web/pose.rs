//! `Lab`'s pose and what it gives: bone poses and reaching, the skinned
//! mesh (the CPU reference), the frames and matrices of each bone, and the
//! skinning note's three steps for a vertex.

use wasm_bindgen::prelude::*;

use super::*;

/// `{origin, orientation, length, product}`: `L_i` and its factors.
#[derive(Serialize)]
struct RelativeView {
    origin: [f32; 16],
    orientation: [f32; 16],
    length: [f32; 16],
    product: [f32; 16],
}

/// `{rotation: [x,y,z,w], translation: [x,y,z], scale: [x,y,z]}`.
#[derive(Serialize)]
struct PoseView {
    rotation: [f32; 4],
    translation: [f32; 3],
    scale: [f32; 3],
}

/// The skinning note's three steps for one vertex and one bone.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ThreeStepsView {
    rest: [f32; 3],
    in_bone_rest: [f32; 3],
    in_bone_animated: [f32; 3],
    in_model_posed: [f32; 3],
}

#[wasm_bindgen(js_class = Lab)]
impl JsLab {
    /// Sets bone `bone`'s animation `A_i = T(translation) · Rot(rotation) ·
    /// S(scale)` from `{rotation: [x, y, z, w], translation: [x, y, z],
    /// scale: [x, y, z]}`, the form `bonePose` gives; a missing field is
    /// the identity.
    #[wasm_bindgen(js_name = setBonePose)]
    pub fn set_bone_pose(&mut self, bone: f64, pose: JsValue) -> Result<(), JsError> {
        const METHOD: &str = "setBonePose";
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(METHOD, e))?;
        refuse_unknown_keys(METHOD, &pose, &["rotation", "translation", "scale"])?;
        let field = |key: &str, identity: &[f64]| -> Result<Vec<f64>, JsError> {
            let value = js_sys::Reflect::get(&pose, &key.into()).unwrap_or(JsValue::UNDEFINED);
            if value.is_undefined() || value.is_null() {
                Ok(identity.to_vec())
            } else {
                numbers(METHOD, key, value)
            }
        };
        let rotation = fixed_from_f64::<4>("rotation", &field("rotation", &[0.0, 0.0, 0.0, 1.0])?)
            .map_err(|e| js_error(METHOD, e))?;
        let translation = fixed_from_f64::<3>("translation", &field("translation", &[0.0; 3])?)
            .map_err(|e| js_error(METHOD, e))?;
        let scale = fixed_from_f64::<3>("scale", &field("scale", &[1.0; 3])?)
            .map_err(|e| js_error(METHOD, e))?;
        self.inner
            .set_bone_pose(bone, rotation, translation, scale)
            .map_err(|e| js_error(METHOD, e))
    }

    /// Sets every bone's pose at once from three arrays in bone order
    /// (`Float32Array`s or arrays of numbers): `rotations` (`x, y, z, w`
    /// per bone), `translations` and `scales` (`x, y, z` per bone), as
    /// [`JsLab::pose_arrays`] gives them. Each bone is validated as
    /// `setBonePose` validates one; a bad one throws and changes nothing.
    /// One call for a whole pose costs one update of the posed frames,
    /// where a `setBonePose` per bone costs one per bone.
    #[wasm_bindgen(js_name = setPoseArrays)]
    pub fn set_pose_arrays(
        &mut self,
        rotations: &[f32],
        translations: &[f32],
        scales: &[f32],
    ) -> Result<(), JsError> {
        self.inner
            .set_pose_arrays(rotations, translations, scales)
            .map_err(|e| js_error("setPoseArrays", e))
    }

    /// Every bone's pose as `{rotations, translations, scales}`, three
    /// `Float32Array`s in bone order (4, 3 and 3 numbers a bone).
    #[wasm_bindgen(js_name = poseArrays)]
    pub fn pose_arrays(&self) -> Result<JsValue, JsError> {
        let (rotations, translations, scales) = self.inner.pose_arrays();
        let view = js_sys::Object::new();
        for (key, values) in [
            ("rotations", rotations),
            ("translations", translations),
            ("scales", scales),
        ] {
            let array = js_sys::Float32Array::from(values.as_slice());
            js_sys::Reflect::set(&view, &key.into(), &array.into())
                .map_err(|_| js_error("poseArrays", "could not build the result"))?;
        }
        Ok(view.into())
    }

    /// Turns bone `bone` and its parent so that `bone`'s tip reaches
    /// `target` (`[x, y, z]`, model space) by analytic two-bone IK, bending
    /// in the current bend's plane (or the XY plane when straight).
    pub fn reach(&mut self, bone: f64, target: JsValue) -> Result<(), JsError> {
        const METHOD: &str = "reach";
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(METHOD, e))?;
        let target = fixed_from_f64::<3>("target", &numbers(METHOD, "target", target)?)
            .map_err(|e| js_error(METHOD, e))?;
        self.inner
            .reach(bone, glam::Vec3::from_array(target), glam::Vec3::Z)
            .map_err(|e| js_error(METHOD, e))
    }

    /// Bone `bone`'s animation as `{rotation, translation, scale}`.
    #[wasm_bindgen(js_name = bonePose)]
    pub fn bone_pose(&self, bone: f64) -> Result<JsValue, JsError> {
        const METHOD: &str = "bonePose";
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(METHOD, e))?;
        let pose = self
            .inner
            .bone_pose(bone)
            .map_err(|e| js_error(METHOD, e))?;
        let view = PoseView {
            rotation: pose.rotation.to_array(),
            translation: pose.translation.to_array(),
            scale: pose.scale.to_array(),
        };
        serde_wasm_bindgen::to_value(&view).map_err(|e| js_error(METHOD, e))
    }

    /// Puts every bone back in its rest pose.
    #[wasm_bindgen(js_name = resetPose)]
    pub fn reset_pose(&mut self) {
        self.inner.reset_pose();
    }

    /// The CPU reference: `x, y, z` per vertex, skinned by `"lbs"` or
    /// `"dqs"`.
    #[wasm_bindgen(js_name = skinnedPositions)]
    pub fn skinned_positions(&self, method: &str) -> Result<js_sys::Float32Array, JsError> {
        let method: SkinningMethod = method
            .parse()
            .map_err(|e| js_error("skinnedPositions", e))?;
        Ok(float_array(&self.inner.skinned_positions(method)))
    }

    /// One vertex skinned by `"lbs"` or `"dqs"`, `[x, y, z]`, without
    /// skinning the rest of the mesh.
    #[wasm_bindgen(js_name = skinnedVertex)]
    pub fn skinned_vertex(&self, method: &str, vertex: f64) -> Result<js_sys::Array, JsError> {
        const METHOD: &str = "skinnedVertex";
        let method: SkinningMethod = method.parse().map_err(|e| js_error(METHOD, e))?;
        let vertex = index_from_f64("vertex", vertex).map_err(|e| js_error(METHOD, e))?;
        self.inner
            .skinned_vertex(method, vertex)
            .map(|p| point_array(&p.to_array()))
            .map_err(|e| js_error(METHOD, e))
    }

    /// The skinned normals matching [`JsLab::skinned_positions`].
    #[wasm_bindgen(js_name = skinnedNormals)]
    pub fn skinned_normals(&self, method: &str) -> Result<js_sys::Float32Array, JsError> {
        let method: SkinningMethod = method.parse().map_err(|e| js_error("skinnedNormals", e))?;
        Ok(float_array(&self.inner.skinned_normals(method)))
    }

    /// `M_i = R'_i · R_i⁻¹` of bone `bone`: 16 numbers, column-major.
    #[wasm_bindgen(js_name = skinningMatrix)]
    pub fn skinning_matrix(&self, bone: f64) -> Result<Vec<f32>, JsError> {
        const METHOD: &str = "skinningMatrix";
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(METHOD, e))?;
        let matrix = self
            .inner
            .skinning_matrix(bone)
            .map_err(|e| js_error(METHOD, e))?;
        Ok(matrix.to_cols_array().to_vec())
    }

    /// `R_i`: bone `bone`'s own frame in model space, rest pose; 16 numbers,
    /// column-major.
    #[wasm_bindgen(js_name = restFrame)]
    pub fn rest_frame(&self, bone: f64) -> Result<Vec<f32>, JsError> {
        const METHOD: &str = "restFrame";
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(METHOD, e))?;
        self.inner
            .bone_pose(bone)
            .map_err(|e| js_error(METHOD, e))?;
        Ok(self.inner.scene().skeleton.model_from_bone_bind()[bone]
            .to_cols_array()
            .to_vec())
    }

    /// `R'_i`: bone `bone`'s own frame in model space, posed.
    #[wasm_bindgen(js_name = posedFrame)]
    pub fn posed_frame(&self, bone: f64) -> Result<Vec<f32>, JsError> {
        const METHOD: &str = "posedFrame";
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(METHOD, e))?;
        self.inner
            .bone_pose(bone)
            .map_err(|e| js_error(METHOD, e))?;
        Ok(self.inner.model_from_bone_posed()[bone]
            .to_cols_array()
            .to_vec())
    }

    /// The bones note's `L_i = T(origin) · O · T(length)` of bone `bone` (its
    /// children's frame relative to its parent's, at rest):
    /// `{origin, orientation, length, product}`, each 16 numbers,
    /// column-major.
    #[wasm_bindgen(js_name = relativeMatrix)]
    pub fn relative_matrix(&self, bone: f64) -> Result<JsValue, JsError> {
        const METHOD: &str = "relativeMatrix";
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(METHOD, e))?;
        self.inner
            .bone_pose(bone)
            .map_err(|e| js_error(METHOD, e))?;
        let [origin, orientation, length, product] =
            self.inner.scene().skeleton.bones()[bone].relative_factors();
        let view = RelativeView {
            origin: origin.to_cols_array(),
            orientation: orientation.to_cols_array(),
            length: length.to_cols_array(),
            product: product.to_cols_array(),
        };
        serde_wasm_bindgen::to_value(&view).map_err(|e| js_error(METHOD, e))
    }

    /// `A_i = T(t) · Rot(q) · S(s)`: bone `bone`'s animation as a matrix.
    #[wasm_bindgen(js_name = animationMatrix)]
    pub fn animation_matrix(&self, bone: f64) -> Result<Vec<f32>, JsError> {
        const METHOD: &str = "animationMatrix";
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(METHOD, e))?;
        let pose = self
            .inner
            .bone_pose(bone)
            .map_err(|e| js_error(METHOD, e))?;
        let bone = &self.inner.scene().skeleton.bones()[bone];
        Ok(bone.animated(&pose).to_cols_array().to_vec())
    }

    /// The skinning note's three steps for vertex `vertex` under bone `bone`:
    /// `{inBoneRest: Q = R_i⁻¹ P, inBoneAnimated: T = A_i Q, inModelPosed:
    /// Z = C'_p · T(origin) · O · T}`, each `[x, y, z]`.
    #[wasm_bindgen(js_name = threeSteps)]
    pub fn three_steps(&self, bone: f64, vertex: f64) -> Result<JsValue, JsError> {
        const METHOD: &str = "threeSteps";
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(METHOD, e))?;
        let vertex = index_from_f64("vertex", vertex).map_err(|e| js_error(METHOD, e))?;
        self.inner
            .bone_pose(bone)
            .map_err(|e| js_error(METHOD, e))?;
        self.inner
            .influences(vertex)
            .map_err(|e| js_error(METHOD, e))?;
        let point = self.inner.scene().mesh.positions_model[vertex];
        let posed = self.inner.model_from_bone_posed().to_vec();
        let scene = self.inner.scene();
        let steps =
            crate::rig::pose::three_steps(&scene.skeleton, &scene.pose, &posed, bone, point);
        let view = ThreeStepsView {
            rest: point.to_array(),
            in_bone_rest: steps.in_bone_rest.to_array(),
            in_bone_animated: steps.in_bone_animated.to_array(),
            in_model_posed: steps.in_model_posed.to_array(),
        };
        serde_wasm_bindgen::to_value(&view).map_err(|e| js_error(METHOD, e))
    }
}
