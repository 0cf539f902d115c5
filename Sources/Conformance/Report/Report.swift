import Foundation

/// Small formatting helpers shared by the reports.
public enum Report {
    public static func seconds(_ s: Double) -> String {
        s >= 1 ? String(format: "%.1f s", s) : String(format: "%.0f ms", s * 1000)
    }

    /// Indents every line of `text`.
    static func indent(_ text: String, _ prefix: String = "    ") -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { prefix + $0 }.joined(separator: "\n")
    }
}
