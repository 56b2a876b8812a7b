//! RADIANCE's placement of a sample in a unit hypercube from one number (`SDmultiSamp`):
//! the number is an index along a Hilbert curve through the cube, and the point is jittered
//! inside the curve's cell with the C library's `rand()`. `bsdf2ttree` super-samples its grid
//! cells this way in four dimensions, where a cell of the curve is 2^-15 wide, so the jitter
//! shows in the printed digits: it is reproduced with glibc's unseeded `rand()` stream.

/// glibc's `rand()` as a program that never calls `srand` sees it: the additive feedback
/// generator of degree 31 (`TYPE_3`), seeded with 1.
pub(crate) struct CRand {
    state: [u32; 31],
    front: usize,
    rear: usize,
}

impl CRand {
    /// The generator at program start.
    pub(crate) fn new() -> CRand {
        let mut state = [0u32; 31];
        state[0] = 1;
        for i in 1..31 {
            // A Lehmer step modulo 2^31 - 1, as glibc seeds its table.
            state[i] = ((16807 * u64::from(state[i - 1])) % 2_147_483_647) as u32;
        }
        let mut r = CRand {
            state,
            front: 3,
            rear: 0,
        };
        // glibc throws away the first 310 outputs.
        for _ in 0..310 {
            r.next();
        }
        r
    }

    /// The next value, 0 ..= `RAND_MAX` (2^31 - 1).
    pub(crate) fn next(&mut self) -> u32 {
        let v = self.state[self.front].wrapping_add(self.state[self.rear]);
        self.state[self.front] = v;
        self.front = (self.front + 1) % 31;
        self.rear = (self.rear + 1) % 31;
        v >> 1
    }

    /// `rand() * (1 / (RAND_MAX + 0.5))`: [0, 1).
    fn fraction(&mut self) -> f64 {
        f64::from(self.next()) * (1.0 / 2_147_483_647.5)
    }
}

/// The largest number of dimensions [`multi_samp`] places.
pub(crate) const MAX_DIMS: usize = 4;

/// The cell coordinates of point `index` of the Hilbert curve through a cube of `dims`
/// dimensions with `bits` bits a side, oriented as RADIANCE's `hilbert_i2c` (Doug Moore's
/// curve) orients it.
pub(crate) fn hilbert_i2c(dims: usize, bits: u32, index: u64) -> [u64; MAX_DIMS] {
    let mut coord = [0u64; MAX_DIMS];
    if dims == 1 {
        coord[0] = index;
        return coord;
    }
    let n = dims as u32;
    let digit_ones = (1u64 << n) - 1;
    if bits == 1 {
        let gray = index ^ (index >> 1);
        for (d, c) in coord.iter_mut().enumerate().take(dims) {
            *c = (gray >> d) & 1;
        }
        return coord;
    }
    let total = n * bits;
    let all_ones = if total == 64 {
        u64::MAX
    } else {
        (1u64 << total) - 1
    };
    // A one at the bottom of every digit.
    let digit_ends = all_ones / digit_ones;
    let index = index ^ ((index ^ digit_ends) >> 1);
    // Each level's digit, rotated and reflected by the levels above it.
    let mut cells = 0u64;
    let mut rotation = 0u32;
    let mut flip = 0u64;
    for level in (0..bits).rev() {
        let digit = (index >> (level * n)) & digit_ones;
        let rotated = ((digit << rotation) | (digit >> (n - rotation))) & digit_ones;
        cells = (cells << n) | (rotated ^ flip);
        flip = 1 << rotation;
        // Turn by one more than the position of the digit's lowest set bit (the top bit and
        // an empty digit count as none).
        let low = digit & digit.wrapping_neg() & (digit_ones >> 1);
        if low != 0 {
            rotation += low.trailing_zeros() + 1;
        }
        rotation = (rotation + 1) % n;
    }
    let mut b = n;
    while b < total {
        cells ^= cells >> b;
        b *= 2;
    }
    // Digit k (from the finest level) holds bit k of every coordinate.
    for k in 0..bits {
        let digit = (cells >> (k * n)) & digit_ones;
        for (d, c) in coord.iter_mut().enumerate().take(dims) {
            *c |= ((digit >> d) & 1) << k;
        }
    }
    coord
}

/// The point of the unit cube of `dims` (2 ..= 4) dimensions at fraction `x` along the Hilbert
/// curve, jittered within its cell by `rand` (`SDmultiSamp`; the last coordinate is jittered
/// first, as RADIANCE does).
pub(crate) fn multi_samp(dims: usize, x: f64, rand: &mut CRand) -> [f64; MAX_DIMS] {
    let x = x.clamp(0.0, 0.999_999_999_999_999);
    let bits = 63 / dims as u32;
    let index = (x * (1u64 << (bits * dims as u32)) as f64) as u64;
    let cell = hilbert_i2c(dims, bits, index);
    let scale = 1.0 / (1u64 << bits) as f64;
    let mut t = [0.0; MAX_DIMS];
    for d in (0..dims).rev() {
        t[d] = scale * (cell[d] as f64 + rand.fraction());
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    /// glibc's first outputs of an unseeded `rand()`, and the 1001st.
    #[test]
    fn rand_is_glibcs() {
        let mut r = CRand::new();
        let first: Vec<u32> = (0..5).map(|_| r.next()).collect();
        assert_eq!(
            first,
            [1804289383, 846930886, 1681692777, 1714636915, 1957747793]
        );
        for _ in 0..995 {
            r.next();
        }
        assert_eq!(r.next(), 981914693);
    }

    /// Points of RADIANCE's `hilbert_i2c`, from its C compiled and run.
    #[test]
    fn hilbert_curve_is_radiances() {
        let four: [(u64, [u64; 4]); 10] = [
            (0x0, [0, 0, 0, 0]),
            (0x1, [0, 0, 1, 0]),
            (0x2, [0, 0, 1, 1]),
            (0x3, [0, 0, 0, 1]),
            (0x11, [0, 2, 0, 1]),
            (0x12d687, [30, 46, 15, 22]),
            (0xe5f4c8f743, [648, 924, 483, 378]),
            (0xfedcba987654321, [4112, 8794, 2913, 27774]),
            (0x123456789abcdef, [17588, 5827, 9986, 8224]),
            (0xfffffffffffffff, [0, 0, 0, 32767]),
        ];
        for (i, c) in four {
            assert_eq!(hilbert_i2c(4, 15, i), c, "4-D index {i:#x}");
        }
        let three: [(u64, [u64; 3]); 7] = [
            (0x1, [0, 0, 1]),
            (0x2, [1, 0, 1]),
            (0x11, [1, 2, 2]),
            (0x12d687, [92, 100, 1]),
            (0xe5f4c8f743, [8105, 12232, 5212]),
            (0xfedcba987654321, [828403, 188675, 90937]),
            (0xfffffffffffffff, [1048575, 0, 0]),
        ];
        for (i, c) in three {
            assert_eq!(&hilbert_i2c(3, 21, i)[..3], &c, "3-D index {i:#x}");
        }
        // Two dimensions, 31 bits (as bsdf2klems's curve).
        assert_eq!(&hilbert_i2c(2, 31, 1)[..2], &[1, 0]);
        assert_eq!(&hilbert_i2c(2, 31, 2)[..2], &[1, 1]);
        assert_eq!(&hilbert_i2c(2, 31, 1234567)[..2], &[1414, 357]);
    }
}
