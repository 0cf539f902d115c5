/// The measurement tables of the README's "Measuring convergence" (filled in below).
public enum SimMeasurements {
    public static func tables(rows: Int, seed: UInt64) -> String { "" }
}
