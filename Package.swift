// swift-tools-version:6.0
import PackageDescription

// Layout (see README "Architecture"):
//   UndoCore         pure-Swift shared history: no C, no dlopen, no libffi
//   (plugin host, C shims, plugins, executables are added by their own targets below)
let package = Package(
    name: "UndoHost",
    products: [
        .library(name: "UndoCore", targets: ["UndoCore"]),
    ],
    targets: [
        .target(name: "UndoCore", path: "Sources/UndoCore"),
        .testTarget(name: "UndoCoreTests", dependencies: ["UndoCore"], path: "Tests/UndoCoreTests"),
    ],
    swiftLanguageModes: [.v6]
)
