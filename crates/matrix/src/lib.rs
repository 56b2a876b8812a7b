//! RADIANCE matrices (`daylit-matrix`): the files `rcontrib`, `gendaymtx` and `dctimestep`
//! exchange, read and written in their three number formats, and the products
//! `dctimestep` computes (daylight coefficients × sky, and the chain V T D S).
//!
//! - [`read`]: header (`NROWS=`, `NCOLS=`, `NCOMP=`, `FORMAT=`, `BigEndian=`, `EXPOSURE=`),
//!   header-less ASCII, byte swapping; errors name the input, the line and what was expected.
//! - [`rows`]: a matrix read a row at a time (rcomb's inputs).
//! - [`write`]: the header and body as RADIANCE's `dctimestep` writes them.
//! - [`collate`]: rcollate's reshaping, transposing and blocking of records.
//! - [`combine`]: rcomb's data types, per-input transforms and scaling, sums and header.
//! - [`ops`]: rmtxop's component transforms, scaling, transposition and element-wise
//!   operations.
//! - [`timestep`]: dctimestep's results: per-step files and columns, pictures, sums of
//!   component pictures.
//! - [`product`]: per-component products with `faer`, parallel over row blocks, and the
//!   annual-illuminance helper [`illuminance`].

pub mod collate;
pub mod combine;
pub mod error;
pub mod header;
pub mod ops;
pub mod product;
pub mod read;
pub mod rows;
pub mod timestep;
pub mod write;

pub use error::MatrixError;
pub use header::{parse_header, Format, Header};
pub use product::{chain, illuminance, multiply, LUX_WEIGHTS};
pub use read::{
    is_headerless, read_matrix, read_matrix_file, read_matrix_from, HeaderMode, Loaded, ReadOptions,
};
pub use write::{
    format_e6, write_body, write_body_rmtxop, write_header, write_header_aligned, write_matrix,
};

/// A RADIANCE matrix: `rows × cols` elements of `ncomp` components each (3 for RGB), stored
/// row by row with the components of an element together, the order of RADIANCE's files.
///
/// Values are `f32`. RADIANCE keeps matrix elements as `float` (`COLORV`) whatever the file
/// format, so a double file read here rounds exactly as it does in `dctimestep`, and a year
/// of results for 10⁴ sensors (10⁴ × 8760 × 3 values) takes 1 GB instead of 2. Products are
/// accumulated in `f64`, as RADIANCE accumulates them (see [`multiply`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Matrix {
    rows: usize,
    cols: usize,
    ncomp: usize,
    data: Vec<f32>,
    /// Header lines other than the identifier, the dimensions, the format, the byte order and
    /// the exposure (applied to the values on reading), kept to be passed on.
    pub header_lines: Vec<String>,
}

impl Matrix {
    /// A matrix from its values (row-major, components together). Errors when `data` does
    /// not hold exactly `rows × cols × ncomp` values or a dimension is zero.
    pub fn new(
        rows: usize,
        cols: usize,
        ncomp: usize,
        data: Vec<f32>,
    ) -> Result<Self, MatrixError> {
        let n = element_count(rows, cols, ncomp)?;
        if data.len() != n {
            return Err(MatrixError::Shape(format!(
                "{rows}×{cols}×{ncomp} matrix needs {n} values, got {}",
                data.len()
            )));
        }
        Ok(Matrix {
            rows,
            cols,
            ncomp,
            data,
            header_lines: Vec::new(),
        })
    }

    /// A matrix of zeros.
    pub fn zeros(rows: usize, cols: usize, ncomp: usize) -> Result<Self, MatrixError> {
        let n = element_count(rows, cols, ncomp)?;
        Matrix::new(rows, cols, ncomp, vec![0.0; n])
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Components per element (3 for RGB).
    pub fn ncomp(&self) -> usize {
        self.ncomp
    }

    /// All values, row-major with the components of an element together.
    pub fn data(&self) -> &[f32] {
        &self.data
    }

    /// All values, mutable (the shape cannot change).
    pub fn data_mut(&mut self) -> &mut [f32] {
        &mut self.data
    }

    /// The values, giving up the matrix.
    pub fn into_data(self) -> Vec<f32> {
        self.data
    }

    /// The components of element (`row`, `col`). Panics when out of range, like slice indexing.
    pub fn get(&self, row: usize, col: usize) -> &[f32] {
        assert!(
            row < self.rows && col < self.cols,
            "matrix index out of range"
        );
        let i = (row * self.cols + col) * self.ncomp;
        &self.data[i..i + self.ncomp]
    }

    /// Reinterprets the matrix as `rows × cols` with the same number of elements (what
    /// dctimestep's `-x`/`-y` do to its output).
    pub fn reshape(&mut self, rows: usize, cols: usize) -> Result<(), MatrixError> {
        if rows.checked_mul(cols) != Some(self.rows * self.cols) || rows == 0 {
            return Err(MatrixError::Shape(format!(
                "cannot reshape {}×{} into {rows}×{cols}",
                self.rows, self.cols
            )));
        }
        self.rows = rows;
        self.cols = cols;
        Ok(())
    }
}

/// `rows × cols × ncomp`, checked for zero and overflow.
fn element_count(rows: usize, cols: usize, ncomp: usize) -> Result<usize, MatrixError> {
    if rows == 0 || cols == 0 || ncomp == 0 {
        return Err(MatrixError::Shape(format!(
            "empty matrix ({rows}×{cols}×{ncomp})"
        )));
    }
    rows.checked_mul(cols)
        .and_then(|n| n.checked_mul(ncomp))
        .filter(|&n| n <= isize::MAX as usize / 8)
        .ok_or_else(|| MatrixError::Shape(format!("matrix too large ({rows}×{cols}×{ncomp})")))
}
