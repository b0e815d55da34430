//! A skinning matrix as the three rows the fast LBS loops blend.

use glam::{Mat4, Vec4};

/// A skinning matrix `M` (affine: last row `0 0 0 1`) as its first three
/// rows, `(m_r0, m_r1, m_r2, t_r)` for `r = 0, 1, 2`: the layout the fast
/// LBS loop blends, 12 multiply-adds per influence where four columns
/// would take 16.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MatrixRows(pub [Vec4; 3]);

impl MatrixRows {
    /// The first three rows of `matrix`.
    pub fn from_affine(matrix: &Mat4) -> Self {
        let rows = matrix.transpose();
        Self([rows.x_axis, rows.y_axis, rows.z_axis])
    }
}
