/// Welch's two-sample t statistic, for the advisory constant-time check of SPEC.md §6.13: is the
/// time a wrong bearer token takes to refuse different when it differs from the right one in its
/// first byte than in its last? A byte-by-byte early exit makes the second class slower.
///
/// Loopback timings have heavy tails (scheduler, GC, other processes), so samples above the
/// pooled 90th percentile are dropped before the statistic is computed (the cropping dudect uses).
public struct WelchTest: Sendable, Equatable {
    public var countA: Int
    public var countB: Int
    public var meanA: Double
    public var meanB: Double
    /// (meanA − meanB) / sqrt(varA/nA + varB/nB); 0 when both variances are 0.
    public var t: Double

    /// |t| above this is reported as a possible timing leak (dudect's threshold for "probably not
    /// constant time" is 4.5). It only warns (SPEC [R6.13-8]).
    public static let threshold = 4.5
    /// Samples above this pooled percentile are dropped.
    public static let cropPercentile = 0.90

    public var exceedsThreshold: Bool { abs(t) > WelchTest.threshold }

    /// The statistic over two samples (nanoseconds or any unit), cropped as described.
    public static func compute(_ a: [Double], _ b: [Double], crop: Bool = true) -> WelchTest {
        var xa = a, xb = b
        if crop, !a.isEmpty, !b.isEmpty {
            let pooled = (a + b).sorted()
            let cut = pooled[min(pooled.count - 1, Int(Double(pooled.count) * cropPercentile))]
            xa = a.filter { $0 <= cut }
            xb = b.filter { $0 <= cut }
        }
        let (ma, va) = meanVariance(xa)
        let (mb, vb) = meanVariance(xb)
        let se = (xa.count > 0 ? va / Double(xa.count) : 0) + (xb.count > 0 ? vb / Double(xb.count) : 0)
        let t = se > 0 ? (ma - mb) / se.squareRoot() : 0
        return WelchTest(countA: xa.count, countB: xb.count, meanA: ma, meanB: mb, t: t)
    }

    /// Mean and unbiased sample variance (0 for fewer than two samples).
    static func meanVariance(_ x: [Double]) -> (Double, Double) {
        guard !x.isEmpty else { return (0, 0) }
        let m = x.reduce(0, +) / Double(x.count)
        guard x.count > 1 else { return (m, 0) }
        let v = x.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(x.count - 1)
        return (m, v)
    }
}

/// One timing step's result as reported (never a verdict).
public struct TimingFigure: Sendable, Equatable {
    public var step: String
    public var test: WelchTest

    public init(step: String, test: WelchTest) {
        self.step = step
        self.test = test
    }

    /// e.g. `timing bearer-first-vs-last-byte: t = -0.84 (|t| ≤ 4.5), 900 + 901 samples, means 182.1 µs vs 183.0 µs`.
    public var line: String {
        let verdict = test.exceedsThreshold ? "|t| > \(WelchTest.threshold): WARNING, possible timing leak (advisory, never a failure)" : "|t| ≤ \(WelchTest.threshold)"
        return "timing \(step): t = \(WelchTest.format(test.t, 2)) (\(verdict)), \(test.countA) + \(test.countB) samples after cropping, means \(WelchTest.format(test.meanA / 1000, 1)) µs vs \(WelchTest.format(test.meanB / 1000, 1)) µs"
    }
}

extension WelchTest {
    /// Fixed-point text without Foundation's locale-dependent formatting.
    public static func format(_ v: Double, _ decimals: Int) -> String {
        guard v.isFinite else { return String(v) }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let r = (abs(v) * scale).rounded()
        // Beyond 2^53 a Double has no fraction to show, and `Int(_:)` would trap past 2^63.
        guard r / scale < 9_007_199_254_740_992 else { return String(v) }
        let whole = Int(r / scale)
        let frac = Int(r - Double(whole) * scale)
        var fracText = String(frac)
        while fracText.count < decimals { fracText = "0" + fracText }
        let sign = v < 0 && r > 0 ? "-" : ""
        return decimals == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(fracText)"
    }
}
