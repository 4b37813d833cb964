//! Compensated (double-double style) summation used where the reference is an exact rational.

/// A running sum carried as an unevaluated pair `high + low`, accurate to about 2^-100 relative
/// for sums without catastrophic cancellation and far better than naive summation with it.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct AccurateSum {
    high: f64,
    low: f64,
}

/// Error-free sum: returns (s, e) with s + e == a + b exactly.
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    (s, e)
}

impl AccurateSum {
    /// Adds `value`.
    pub(crate) fn add(&mut self, value: f64) {
        let (s, e) = two_sum(self.high, value);
        self.high = s;
        self.low += e;
    }

    /// Adds `a * b`, with the rounding error of the product kept.
    pub(crate) fn add_product(&mut self, a: f64, b: f64) {
        let p = a * b;
        let error = a.mul_add(b, -p);
        self.add(p);
        self.low += error;
    }

    /// The sum rounded to f64.
    pub(crate) fn value(&self) -> f64 {
        self.high + self.low
    }

    /// The sum divided by `divisor`, rounded once more carefully than `value() / divisor`.
    pub(crate) fn divided_by(&self, divisor: f64) -> f64 {
        let q = self.high / divisor;
        // remainder of high - q * divisor, exact with fma
        let r = (-q).mul_add(divisor, self.high);
        q + (r + self.low) / divisor
    }
}
