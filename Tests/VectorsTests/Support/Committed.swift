import Foundation
import Vectors

/// The committed vector files (`vectors/<format>.json`), each read on first use and kept.
///
/// Why not a fresh generation: a debug-build generation of every format takes minutes, and one
/// global fixture built from it made every test of the suite wait for it. Tests judge the reference
/// against the committed cases; `conformance verify` (release, in `.ci/run`) proves the committed
/// bytes are what generation gives. Per format, so a test of one format reads one file.
enum Committed {
    private final class Cache: @unchecked Sendable {
        let lock = NSLock()
        var files: [String: VectorFile] = [:]
    }
    private static let cache = Cache()

    static let directory = Fixtures.repoRoot.appendingPathComponent("vectors")

    static func file(_ format: String) throws -> VectorFile {
        if let f = cache.lock.withLock({ cache.files[format] }) { return f }
        // Read outside the lock, so tests of different formats read their files in parallel; two
        // tests racing on one format read it twice and keep the same value.
        let f = try VectorFile.read(format: format, in: directory)
        cache.lock.withLock { cache.files[format] = f }
        return f
    }

    /// The cases of `format`, or none when the file cannot be read (every caller asserts a count).
    static func cases(_ format: String) -> [VectorCase] {
        (try? file(format))?.cases ?? []
    }
}
