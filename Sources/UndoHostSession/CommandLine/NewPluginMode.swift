#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ArgumentParser

/// `new-plugin NAME [--swift]`: writes a plugin that builds and passes `check` as written.
struct NewPluginMode: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new-plugin",
        abstract: "Write a new plugin in the folder NAME: one C file, or a Swift package with --swift.",
        discussion: "Prints the command that builds it. The folder must not exist yet.")

    @ParentCommand var options: UndoHostCommand

    @Argument(help: ArgumentHelp("The plugin's folder and name: letters, digits, - and _, starting with a letter.",
                                 valueName: "NAME"))
    var name: String

    @Flag(help: "A Swift package using UndoPluginKit (needs undo-host built from a checkout).")
    var swift = false

    func validate() throws {
        guard PluginTemplate.isValidName(name) else {
            throw ValidationError("plugin name \(name): use ASCII letters, digits, - and _, starting with a letter (at most 64)")
        }
    }

    /// Runs the mode. - Returns: the exit status.
    func execute(output: ToolOutput) -> Int32 {
        let template = PluginTemplate(name: name)
        var isFolder = false
        if FileSystem.exists(name, isFolder: &isFolder) {
            return failure("\(name) already exists; nothing was written", output: output)
        }
        let files: [(path: String, text: String)]
        let build: String
        let library: String
        if swift {
            guard let checkout = PluginTemplate.checkoutFolder else {
                return failure("--swift needs undo-host built from an UndoHost checkout (for the package's path dependency)", output: output)
            }
            files = template.swiftFiles(checkout: checkout)
            build = "swift build --package-path \(name)"
            library = "\(name)/.build/debug/lib\(name).so"
        } else {
            guard let include = PluginTemplate.includeFolder(executable: ChildProcessPath.current) else {
                return failure("cannot find undohost/undo_plugin.h (install UndoHost, or build undo-host from a checkout)", output: output)
            }
            files = [("\(name).c", template.cSource(include: include))]
            build = template.cBuildCommand(include: include)
            library = "\(name)/lib\(name).so"
        }
        for file in files {
            if let problem = Self.write(name + "/" + file.path, file.text) {
                return failure("cannot write \(name)/\(file.path): \(problem)", output: output)
            }
        }
        output.write("""
            Wrote \(files.map { name + "/" + $0.path }.joined(separator: ", ")). Build, check and load it:
              \(build)
              undo-host check \(library)
              undo-host --plugins \(library)

            """, error: false)
        return UndoHostTool.ExitStatus.success
    }

    private func failure(_ message: String, output: ToolOutput) -> Int32 {
        output.write("undo-host: \(message)\n", error: true)
        return UndoHostTool.ExitStatus.usageError
    }

    /// Writes `text` to `path`, making its folders. - Returns: the system's reason on failure.
    static func write(_ path: String, _ text: String) -> String? {
        var folder = ""
        for part in path.split(separator: "/").dropLast() {
            folder += (folder.isEmpty ? "" : "/") + part
            if mkdir(folder, 0o755) != 0 && errno != EEXIST { return String(cString: strerror(errno)) }
        }
        guard let file = fopen(path, "wx") else { return String(cString: strerror(errno)) }
        defer { fclose(file) }
        let bytes = Array(text.utf8)
        return fwrite(bytes, 1, bytes.count, file) == bytes.count ? nil : String(cString: strerror(errno))
    }
}

/// This program's file (for finding an installed include folder next to it).
enum ChildProcessPath {
    static var current: String? {
        var buffer = [CChar](repeating: 0, count: 4097)
        let length = readlink("/proc/self/exe", &buffer, 4096)
        guard length > 0 else { return nil }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
