//! A small sparse matrix and a preconditioned conjugate-gradient solver:
//! enough for bone heat, in plain Rust so it compiles to wasm.

/// A square sparse matrix in compressed sparse row form.
#[derive(Clone, Debug, PartialEq)]
pub struct CsrMatrix {
    size: usize,
    row_starts: Vec<usize>,
    columns: Vec<usize>,
    values: Vec<f64>,
}

impl CsrMatrix {
    /// Builds an `size × size` matrix from `(row, column, value)` triplets;
    /// repeated positions are summed.
    ///
    /// # Panics
    ///
    /// If a row or column is `≥ size`.
    pub fn from_triplets(size: usize, mut triplets: Vec<(usize, usize, f64)>) -> Self {
        triplets.sort_unstable_by_key(|&(row, column, _)| (row, column));
        let mut row_starts = vec![0; size + 1];
        let mut columns = Vec::with_capacity(triplets.len());
        let mut values: Vec<f64> = Vec::with_capacity(triplets.len());
        let mut last: Option<(usize, usize)> = None;
        for (row, column, value) in triplets {
            assert!(
                row < size && column < size,
                "({row}, {column}) is outside a {size}×{size} matrix"
            );
            if last == Some((row, column)) {
                if let Some(sum) = values.last_mut() {
                    *sum += value;
                }
                continue;
            }
            columns.push(column);
            values.push(value);
            row_starts[row + 1] += 1;
            last = Some((row, column));
        }
        for row in 0..size {
            row_starts[row + 1] += row_starts[row];
        }
        Self {
            size,
            row_starts,
            columns,
            values,
        }
    }

    /// The number of rows (and columns).
    pub fn size(&self) -> usize {
        self.size
    }

    /// `out = A · x`.
    pub fn multiply(&self, x: &[f64], out: &mut [f64]) {
        for (row, value) in out.iter_mut().enumerate() {
            let span = self.row_starts[row]..self.row_starts[row + 1];
            *value = self.columns[span.clone()]
                .iter()
                .zip(&self.values[span])
                .map(|(&column, &a)| a * x[column])
                .sum();
        }
    }

    /// The row starts, column indices and values (rows sorted by column,
    /// no repeats), for a factorization that walks the structure.
    pub fn parts(&self) -> (&[usize], &[usize], &[f64]) {
        (&self.row_starts, &self.columns, &self.values)
    }

    /// The diagonal entries.
    pub fn diagonal(&self) -> Vec<f64> {
        (0..self.size)
            .map(|row| {
                let span = self.row_starts[row]..self.row_starts[row + 1];
                self.columns[span.clone()]
                    .iter()
                    .zip(&self.values[span])
                    .find(|(&column, _)| column == row)
                    .map_or(0.0, |(_, &a)| a)
            })
            .collect()
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Solves `A x = b` for a symmetric positive definite `A` by conjugate
/// gradients with a Jacobi preconditioner, starting from the `x` given.
/// Stops when `|r| ≤ tolerance · |b|`; returns the iterations used.
pub fn conjugate_gradient(
    matrix: &CsrMatrix,
    b: &[f64],
    x: &mut [f64],
    tolerance: f64,
    max_iterations: usize,
) -> usize {
    let n = matrix.size();
    let inverse_diagonal: Vec<f64> = matrix
        .diagonal()
        .into_iter()
        .map(|d| if d.abs() > 1e-300 { 1.0 / d } else { 1.0 })
        .collect();
    let mut product = vec![0.0; n];
    matrix.multiply(x, &mut product);
    let mut residual: Vec<f64> = b.iter().zip(&product).map(|(b, ax)| b - ax).collect();
    let mut preconditioned: Vec<f64> = residual
        .iter()
        .zip(&inverse_diagonal)
        .map(|(r, d)| r * d)
        .collect();
    let mut direction = preconditioned.clone();
    let mut rz = dot(&residual, &preconditioned);
    let limit = tolerance * dot(b, b).sqrt().max(1e-300);
    for iteration in 0..max_iterations {
        if dot(&residual, &residual).sqrt() <= limit {
            return iteration;
        }
        matrix.multiply(&direction, &mut product);
        let curvature = dot(&direction, &product);
        if curvature <= 0.0 {
            return iteration;
        }
        let step = rz / curvature;
        for k in 0..n {
            x[k] += step * direction[k];
            residual[k] -= step * product[k];
            preconditioned[k] = residual[k] * inverse_diagonal[k];
        }
        let next = dot(&residual, &preconditioned);
        let beta = next / rz;
        rz = next;
        for k in 0..n {
            direction[k] = preconditioned[k] + beta * direction[k];
        }
    }
    max_iterations
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_a_small_spd_system() {
        // [4 1 0; 1 3 1; 0 1 2] x = [1 2 3]
        let triplets = vec![
            (0, 0, 4.0),
            (0, 1, 1.0),
            (1, 0, 1.0),
            (1, 1, 2.0),
            (1, 1, 1.0),
            (1, 2, 1.0),
            (2, 1, 1.0),
            (2, 2, 2.0),
        ];
        let matrix = CsrMatrix::from_triplets(3, triplets);
        let b = [1.0, 2.0, 3.0];
        let mut x = [0.0; 3];
        conjugate_gradient(&matrix, &b, &mut x, 1e-12, 50);
        let mut check = [0.0; 3];
        matrix.multiply(&x, &mut check);
        for k in 0..3 {
            assert!((check[k] - b[k]).abs() < 1e-9, "{check:?}");
        }
    }
}
