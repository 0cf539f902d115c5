import Foundation
import Vectors

/// Files the Vectors tests read, found relative to this source file (no resource bundle).
enum Fixtures {
    static let testsRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let repoRoot = testsRoot.deletingLastPathComponent().deletingLastPathComponent()

    static func kat(_ relative: String) throws -> String {
        try String(contentsOf: testsRoot.appendingPathComponent("KAT").appendingPathComponent(relative), encoding: .utf8)
    }

    static func repoFile(_ relative: String) throws -> String {
        try String(contentsOf: repoRoot.appendingPathComponent(relative), encoding: .utf8)
    }
}
