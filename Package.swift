// swift-tools-version:6.0
import PackageDescription

/// Layered targets, dependencies pointing one way:
/// Primitives (crypto, no wire formats) → Vectors (CBOR, wire formats, generators)
/// → Conformance (runner protocol, process driving, judging) → ConformanceCLI (the executable).
let package = Package(
    name: "pixie-conformance",
    products: [
        .library(name: "Primitives", targets: ["Primitives"]),
        .library(name: "Vectors", targets: ["Vectors"]),
        .library(name: "Conformance", targets: ["Conformance"]),
        .executable(name: "conformance", targets: ["ConformanceCLI"]),
    ],
    targets: [
        .target(name: "Primitives"),
        .target(name: "Vectors", dependencies: ["Primitives"]),
        .target(name: "Conformance", dependencies: ["Vectors", "Primitives"]),
        .executableTarget(name: "ConformanceCLI", dependencies: ["Conformance", "Vectors", "Primitives"]),
        .testTarget(name: "PrimitivesTests", dependencies: ["Primitives"], exclude: ["KAT"]),
        .testTarget(name: "VectorsTests", dependencies: ["Vectors", "Primitives"], exclude: ["KAT"]),
        .testTarget(name: "ConformanceTests", dependencies: ["Conformance", "Vectors", "Primitives"]),
    ],
    swiftLanguageModes: [.v6]
)
