// swift-tools-version:6.0
import PackageDescription

// Layout (see docs/architecture.md):
//   UndoCore         pure-Swift shared history: no C, no dlopen, no libffi
//   (plugin host, C shims, plugins, executables are added by their own targets below)
let package = Package(
    name: "UndoHost",
    products: [
        .library(name: "UndoCore", targets: ["UndoCore"]),
        .library(name: "UndoPluginHost", targets: ["UndoPluginHost"]),
        // The journal: a session's changes kept in SQLite, so a crash or a restart loses nothing.
        .library(name: "UndoJournal", targets: ["UndoJournal"]),
        .library(name: "UndoHostJournal", targets: ["UndoHostJournal"]),
        // An app's own history (Swift commands that are Codable) kept in SQLite (Foundation's JSON).
        .library(name: "UndoCodableJournal", targets: ["UndoCodableJournal"]),
        // Sample plugins: real shared objects (libUndoPlugin*.so next to the binaries).
        .library(name: "UndoPluginTextEditor", type: .dynamic, targets: ["UndoPluginTextEditor"]),
        .library(name: "UndoPluginCanvas", type: .dynamic, targets: ["UndoPluginCanvas"]),
        // The benchmark's plugin (Plugins/BenchCounter), loaded by undo-bench's plugin-* workloads; its name
        // keeps it out of the bundled plugins (libUndoPlugin*.so) that undo-host loads.
        .library(name: "UndoBenchCounterPlugin", type: .dynamic, targets: ["UndoBenchCounterPlugin"]),
        // The benchmark against the reference benchmarks (docs/performance.md).
        .executable(name: "undo-bench", targets: ["undo-bench"]),
        .library(name: "UndoPluginSwiftNotes", type: .dynamic, targets: ["UndoPluginSwiftNotes"]),
        // A test fixture: a Swift plugin with mistakes the host refuses (not a bundled plugin).
        .library(name: "UndoTestSwiftMistakes", type: .dynamic, targets: ["UndoTestSwiftMistakes"]),
        .library(name: "UndoTestSwiftKitUse", type: .dynamic, targets: ["UndoTestSwiftKitUse"]),
        // For plugin authors writing Swift: compiled into their plugin, never into a host.
        .library(name: "UndoPluginKit", targets: ["UndoPluginKit"]),
        // The C ABI's types (undo_call, undo_value, …), which a Swift plugin imports beside the kit.
        .library(name: "UndoPluginABI", targets: ["UndoPluginABI"]),
        // The C API for programs not written in Swift (Include/undohost/undo_host.h).
        // UndoHostLibrary is only in this product: its linker settings (the exported symbols) apply
        // to libundohost.so and to nothing else that links UndoHostC.
        .library(name: "undohost", type: .dynamic, targets: ["UndoHostC", "UndoHostLibrary"]),
        // The host program: sessions at a terminal, scripts, the demo (docs/undo-host.md).
        .executable(name: "undo-host", targets: ["undo-host"]),
        // The process an isolated plugin runs in (PluginIsolation), found next to the host.
        .executable(name: "undo-plugin-runner", targets: ["undo-plugin-runner"]),
        // The Swift plugin of docs/writing-a-plugin-in-swift.md, built so the guide's code is compiled;
        // its name keeps it out of the bundled plugins (libUndoPlugin*.so).
        .library(name: "UndoExampleSwiftCounter", type: .dynamic, targets: ["UndoExampleSwiftCounter"]),
    ],
    dependencies: [
        // `swift package generate-documentation` (scripts/docs.sh): the DocC catalogs of UndoCore and UndoPluginKit.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // undo-host's own command line (modes, options, help, typo suggestions).
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .target(name: "UndoCore", path: "Sources/UndoCore"),
        .testTarget(name: "UndoCoreTests", dependencies: ["UndoCore", "UndoTestSupport"], path: "Tests/UndoCoreTests"),
        // What the test targets share: finding the built products, temporary folders, running undo-host.
        .target(name: "UndoTestSupport", path: "Tests/UndoTestSupport"),
        // The plugin C ABI (Include/undohost/*.h, module map in Include/), header-only.
        .target(name: "UndoPluginABI", path: "Include", publicHeadersPath: "."),
        .systemLibrary(name: "CLibFFI", path: "Sources/CLibFFI", pkgConfig: "libffi",
                       providers: [.apt(["libffi-dev"])]),
        // The system's libcrypto (OpenSSL), for the allow-list's SHA-256: swift-crypto's Crypto
        // imports Foundation on Linux, which the plugin host and libundohost.so do without.
        .systemLibrary(name: "CLibCrypto", path: "Sources/CLibCrypto", pkgConfig: "libcrypto",
                       providers: [.apt(["libssl-dev"])]),
        // The system's SQLite, for the journal (never in UndoCore).
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "UndoJournal", dependencies: ["UndoCore", "CSQLite"], path: "Sources/UndoJournal"),
        // The plugin host's journal, which the C API, undo-host and Swift hosts open.
        .target(name: "UndoHostJournal", dependencies: ["UndoCore", "UndoPluginHost", "UndoJournal", "CSQLite"],
                path: "Sources/UndoHostJournal"),
        .testTarget(name: "UndoJournalTests", dependencies: ["UndoJournal", "UndoTestSupport"], path: "Tests/UndoJournalTests"),
        .testTarget(name: "UndoHostJournalTests", dependencies: ["UndoHostJournal", "UndoJournal", "UndoCore", "UndoPluginHost", "UndoTestSupport"],
                    path: "Tests/UndoHostJournalTests",
                    exclude: ["Fixtures"]),  // journals of formats 1 to 4 (read by every later version) and drift.c, a C plugin the tests build
        .target(name: "UndoCodableJournal", dependencies: ["UndoCore", "UndoJournal", "CSQLite"],
                path: "Sources/UndoCodableJournal"),
        .testTarget(name: "UndoCodableJournalTests", dependencies: ["UndoCodableJournal", "UndoJournal", "UndoCore", "UndoTestSupport"],
                    path: "Tests/UndoCodableJournalTests", exclude: ["Fixtures"]),  // history journals of formats 1 and 2
        // The process the history journal's crash test kills with SIGKILL (a scripted session).
        .executableTarget(name: "CodableJournalCrashSession", dependencies: ["UndoCodableJournal", "UndoCore", "UndoJournal"],
                          path: "Tests/CodableJournalCrashSession"),
        // The direct call prototypes and the conversions of type-erased plugin functions, in C
        // (internal to UndoPluginHost).
        .target(name: "CUndoHostSupport", dependencies: ["UndoPluginABI"], path: "Sources/CUndoHostSupport"),
        .target(name: "UndoPluginHost", dependencies: ["UndoCore", "UndoPluginABI", "CLibFFI", "CLibCrypto", "CUndoHostSupport"],
                path: "Sources/UndoPluginHost"),
        .target(name: "UndoPluginTextEditor", dependencies: ["UndoPluginABI"],
                path: "Plugins/TextEditor", publicHeadersPath: "include"),
        .target(name: "UndoPluginCanvas", dependencies: ["UndoPluginABI"],
                path: "Plugins/Canvas", publicHeadersPath: "include"),
        // Plugins in Swift: the kit depends on the C header module only (only C types cross the
        // boundary, and a Swift module shared by host and plugin would be duplicated).
        .target(name: "UndoPluginKit", dependencies: ["UndoPluginABI"], path: "Sources/UndoPluginKit"),
        .target(name: "UndoPluginSwiftNotes", dependencies: ["UndoPluginKit", "UndoPluginABI"],
                path: "Plugins/SwiftNotes"),
        .target(name: "UndoTestSwiftMistakes", dependencies: ["UndoPluginKit", "UndoPluginABI"],
                path: "Tests/SwiftPluginMistakes"),
        .target(name: "UndoTestSwiftKitUse", dependencies: ["UndoPluginKit", "UndoPluginABI"],
                path: "Tests/SwiftPluginKitUse"),
        // Not on UndoPluginKit: the tests load the Swift plugin the way a host does.
        .testTarget(name: "UndoPluginKitTests", dependencies: ["UndoPluginHost", "UndoCore", "UndoTestSupport"],
                    path: "Tests/UndoPluginKitTests"),
        // libundohost.so: the C API, implemented over UndoPluginHost.
        .target(name: "UndoHostC", dependencies: ["UndoCore", "UndoPluginHost", "UndoPluginABI", "UndoJournal", "UndoHostJournal"],
                path: "Sources/UndoHostC"),
        // The C part of libundohost.so (the exported error functions) and its symbol list: only
        // undo_* is exported (undohost.exports), never the Swift code behind it.
        .target(name: "UndoHostLibrary", dependencies: ["UndoPluginABI"], path: "Sources/UndoHostLibrary",
                exclude: ["undohost.exports"],
                linkerSettings: [.unsafeFlags(["-Xlinker", "--version-script=" + Context.packageDirectory
                                               + "/Sources/UndoHostLibrary/undohost.exports"])]),
        // Builds C and C++ programs against Include/ and libundohost.so and runs them.
        .testTarget(name: "UndoHostCTests", dependencies: ["UndoCore", "UndoPluginHost", "UndoTestSupport"],
                    path: "Tests/UndoHostCTests", exclude: ["Fixtures"]),
        .testTarget(name: "UndoPluginHostTests",
                    dependencies: ["UndoPluginHost", "UndoPluginABI", "UndoTestSupport"],
                    path: "Tests/UndoPluginHostTests",
                    exclude: ["Fixtures"]), // C sources the tests compile with cc
        // `undo-host check`: the plugin validator (tests, child processes, report).
        .target(name: "UndoPluginCheck", dependencies: ["UndoCore", "UndoPluginHost", "UndoPluginABI"],
                path: "Sources/UndoPluginCheck"),
        // undo-host's terminal: raw mode, keys, the line editor and its drawing, safe text; it knows
        // nothing of sessions or plugins.
        .target(name: "UndoHostTerminal", path: "Sources/UndoHostTerminal"),
        // `undo-host check` run as a plugin author runs it, on the bundled plugins and broken ones.
        .testTarget(name: "UndoPluginCheckTests", dependencies: ["UndoTestSupport"], path: "Tests/UndoPluginCheckTests",
                    exclude: ["Fixtures"]), // broken plugins for `undo-host check`, compiled with cc
        // undo-host: the session logic is a library so tests can also drive it in-process.
        .target(name: "UndoHostSession", dependencies: ["UndoCore", "UndoPluginHost", "UndoPluginABI", "UndoPluginCheck", "UndoJournal", "UndoHostJournal",
                                                  "UndoHostTerminal",
                                                  .product(name: "ArgumentParser", package: "swift-argument-parser")],
                path: "Sources/UndoHostSession"),
        .executableTarget(name: "undo-host", dependencies: ["UndoHostSession"], path: "Sources/undo-host"),
        .executableTarget(name: "undo-plugin-runner", dependencies: ["UndoPluginHost"], path: "Sources/undo-plugin-runner"),
        .testTarget(name: "UndoHostToolTests", dependencies: ["UndoHostSession", "UndoHostTerminal", "UndoCore", "UndoPluginHost",
                                                            "UndoJournal", "UndoTestSupport"],
                    path: "Tests/UndoHostToolTests"),
        .target(name: "UndoBenchCounterPlugin", dependencies: ["UndoPluginABI"],
                path: "Plugins/BenchCounter", publicHeadersPath: "include"),
        .target(name: "CUndoBenchSupport", path: "Sources/CUndoBenchSupport"),  // mallinfo2 for undo-bench
        .executableTarget(name: "undo-bench", dependencies: ["UndoCore", "UndoPluginHost", "UndoJournal", "UndoHostJournal", "CUndoBenchSupport", "CLibFFI",
                                                            "UndoCodableJournal"],
                          path: "Sources/undo-bench"),
        // Runs the built undo-bench at small sizes: its checks and its output line, not its speed.
        .testTarget(name: "UndoBenchTests", dependencies: ["UndoTestSupport"], path: "Tests/UndoBenchTests"),
        // Fuzzing and the thread stress test (docs/reliability.md). The fuzz logic is a library,
        // so the regression tests replay saved inputs through the same code; each fuzz-* program is a
        // libFuzzer target when built with -DUNDO_LIBFUZZER (scripts/fuzz.sh), else it replays files.
        .target(name: "UndoFuzzTargets", dependencies: ["UndoCore", "UndoPluginHost", "UndoPluginABI", "UndoHostC", "UndoHostJournal",
                                                        "UndoJournal"],
                path: "Tests/UndoFuzzTargets"),
        .executableTarget(name: "fuzz-arguments", dependencies: ["UndoFuzzTargets"], path: "Tests/fuzz-arguments"),
        .executableTarget(name: "fuzz-titles", dependencies: ["UndoFuzzTargets"], path: "Tests/fuzz-titles"),
        .executableTarget(name: "fuzz-c-api", dependencies: ["UndoFuzzTargets"], path: "Tests/fuzz-c-api"),
        .executableTarget(name: "fuzz-journal", dependencies: ["UndoFuzzTargets"], path: "Tests/fuzz-journal"),
        .testTarget(name: "UndoFuzzTargetsTests", dependencies: ["UndoFuzzTargets"], path: "Tests/UndoFuzzTargetsTests"),
        .target(name: "UndoExampleSwiftCounter", dependencies: ["UndoPluginKit", "UndoPluginABI"],
                path: "examples/swift-plugin"),
        // Every code block of README.md and docs/*.md compiled, run or compared (docs/checked-examples.md).
        // Not on UndoPluginKit: the tests load Swift plugins the way a host does.
        .testTarget(name: "DocsTests", dependencies: ["UndoCore", "UndoPluginHost", "UndoJournal", "UndoHostJournal", "UndoCodableJournal",
                                                      "UndoTestSupport"],
                    path: "Tests/DocsTests"),
        .testTarget(name: "UndoThreadStressTests", dependencies: ["UndoPluginHost", "UndoCore", "UndoPluginABI", "UndoHostC",
                                                                  "UndoHostJournal", "UndoJournal", "UndoTestSupport"],
                    path: "Tests/UndoThreadStressTests"),
    ],
    swiftLanguageModes: [.v6]
)
