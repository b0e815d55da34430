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
    pub fn from_triplets(size: usize, triplets: Vec<(usize, usize, f64)>) -> Self {
        // Bucketed by row (a counting sort, in the triplets' order), then
        // each short row by column: linear time and no sort of the whole list
        // (a standard sort would be a copy of its own in the wasm).
        let mut bucket_starts = vec![0; size + 1];
        for &(row, column, _) in &triplets {
            assert!(
                row < size && column < size,
                "({row}, {column}) is outside a {size}×{size} matrix"
            );
            bucket_starts[row + 1] += 1;
        }
        for row in 0..size {
            bucket_starts[row + 1] += bucket_starts[row];
        }
        let mut next = bucket_starts.clone();
        let mut by_row = vec![(0, 0.0); triplets.len()];
        for (row, column, value) in triplets {
            by_row[next[row]] = (column, value);
            next[row] += 1;
        }
        let mut row_starts = vec![0; size + 1];
        let mut columns = Vec::with_capacity(by_row.len());
        let mut values: Vec<f64> = Vec::with_capacity(by_row.len());
        for row in 0..size {
            let entries = &mut by_row[bucket_starts[row]..bucket_starts[row + 1]];
            crate::rig::sorting::sort_stable_by_key(entries, |&(column, _)| column);
            let mut last = None;
            for &(column, value) in entries.iter() {
                // Repeated positions summed in the order given.
                if last == Some(column) {
                    if let Some(sum) = values.last_mut() {
                        *sum += value;
                    }
                    continue;
                }
                columns.push(column);
                values.push(value);
                last = Some(column);
            }
            row_starts[row + 1] = columns.len();
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

    proptest::proptest! {
        /// Rows in order, columns increasing within a row, each position
        /// once with the sum of its triplets: the dense matrix, compressed.
        #[test]
        fn triplets_compress_to_the_dense_sum(
            size in 1_usize..8,
            picks in proptest::collection::vec((0_usize..64, -4_i32..5), 0..60),
        ) {
            let triplets: Vec<(usize, usize, f64)> = picks
                .iter()
                .map(|&(at, value)| ((at / 8) % size, (at % 8) % size, f64::from(value)))
                .collect();
            let mut dense = vec![vec![None::<f64>; size]; size];
            for &(row, column, value) in &triplets {
                *dense[row][column].get_or_insert(0.0) += value;
            }
            let matrix = CsrMatrix::from_triplets(size, triplets);
            let (row_starts, columns, values) = matrix.parts();
            let mut expected_starts = vec![0];
            let (mut expected_columns, mut expected_values) = (Vec::new(), Vec::new());
            for row in &dense {
                for (column, sum) in row.iter().enumerate() {
                    if let Some(sum) = sum {
                        expected_columns.push(column);
                        expected_values.push(*sum);
                    }
                }
                expected_starts.push(expected_columns.len());
            }
            proptest::prop_assert_eq!(row_starts, &expected_starts[..]);
            proptest::prop_assert_eq!(columns, &expected_columns[..]);
            proptest::prop_assert_eq!(values, &expected_values[..]);
        }
    }
}
