// swift-tools-version:5.4
import Foundation
import PackageDescription

/// The reference's decoders as libFuzzer targets (issue 27), beside the main package so that its
/// `swift build` and `swift test` are untouched. One executable target per fuzz surface: each
/// `Sources/fuzz_<surface>/` folder holds only the libFuzzer entry point for
/// `ConformanceFuzzSurfaces.named("<surface>")`, so the list of targets is the list of folders.
///
/// Build every target in one sanitized build (what `scripts/fuzz-targets.sh` and the
/// ClusterFuzzLite `build.sh` run):
///
///     swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
///
/// Tools version 5.4 on purpose: from 5.5 SwiftPM renames an executable's entry point to
/// `<target>_main` and links `main` to it, which a libFuzzer target (whose `main` is libFuzzer's)
/// does not have. The main package keeps its own tools version and language mode.
let identity = "pixie-conformance"
let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Sources").path
let targets = ((try? FileManager.default.contentsOfDirectory(atPath: sources)) ?? [])
    .filter { $0.hasPrefix("fuzz_") }.sorted()

let package = Package(
    name: "pixie-fuzz",
    dependencies: [.package(name: identity, path: "..")],
    targets: [
        .target(name: "FuzzCommon", dependencies: [
            .product(name: "Conformance", package: identity), .product(name: "Vectors", package: identity),
        ]),
    ] + targets.map { .executableTarget(name: $0, dependencies: ["FuzzCommon"]) }
)
