// swift-tools-version:6.0
// What a plugin written in Swift needs, and nothing else: UndoPluginKit and the C ABI it wraps
// (the headers of Include/). A plugin that depends on this package, rather than on UndoHost's
// root package, builds with no other package to fetch (UndoHost's own dependencies, such as
// swift-argument-parser, are for the host): offline, with an empty cache, from a checkout.
//
//     dependencies: [.package(path: "../undohost/PluginKit")],
//     ... .product(name: "UndoPluginKit", package: "PluginKit"),
//         .product(name: "UndoPluginABI", package: "PluginKit")
//
// Its folders are links into the repository (Include, Sources/UndoPluginKit): one copy of the code.
import PackageDescription

let package = Package(
    name: "PluginKit",
    products: [
        .library(name: "UndoPluginKit", targets: ["UndoPluginKit"]),
        .library(name: "UndoPluginABI", targets: ["UndoPluginABI"]),
    ],
    targets: [
        .target(name: "UndoPluginABI", path: "Include", publicHeadersPath: "."),
        .target(name: "UndoPluginKit", dependencies: ["UndoPluginABI"], path: "Sources/UndoPluginKit"),
    ],
    swiftLanguageModes: [.v6]
)
