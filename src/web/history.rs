//! `Lab`'s undo and redo.

use wasm_bindgen::prelude::*;

use super::*;

#[wasm_bindgen(js_class = Lab)]
impl JsLab {
    /// Records the pose and the weights as one undo step, before an edit.
    pub fn checkpoint(&mut self) {
        self.inner.checkpoint();
    }

    /// Goes back one step; false if there is none.
    pub fn undo(&mut self) -> bool {
        self.inner.undo()
    }

    /// Whether there is a step to undo.
    #[wasm_bindgen(js_name = canUndo)]
    pub fn can_undo(&self) -> bool {
        self.inner.can_undo()
    }

    /// Bytes the undo and redo steps hold now.
    #[wasm_bindgen(js_name = undoBytes)]
    pub fn undo_bytes(&self) -> f64 {
        self.inner.undo_bytes() as f64
    }

    /// Undo steps forgotten so far to stay within the byte budget.
    #[wasm_bindgen(js_name = undoStepsDropped)]
    pub fn undo_steps_dropped(&self) -> u32 {
        self.inner.undo_steps_dropped() as u32
    }

    /// Whether there is a step to redo.
    #[wasm_bindgen(js_name = canRedo)]
    pub fn can_redo(&self) -> bool {
        self.inner.can_redo()
    }

    /// Re-applies the step undo took back; false if there is none.
    pub fn redo(&mut self) -> bool {
        self.inner.redo()
    }
}
