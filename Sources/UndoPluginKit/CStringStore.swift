#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import UndoPluginABI

/// C copies of strings and parameter arrays that must outlive every use by the host: the
/// descriptor's strings for the life of the process, the action types' for the plugin's.
/// Never freed: a plugin's shared object is never unloaded (the host opens it with
/// RTLD_NODELETE), and one plugin makes a fixed handful of them.
final class CStringStore: @unchecked Sendable {
    private var strings: [String: UnsafePointer<CChar>] = [:]

    /// A NUL-terminated copy of `text`, made once per distinct text.
    func cString(_ text: String) -> UnsafePointer<CChar> {
        if let existing = strings[text] { return existing }
        let copy = UnsafePointer(strdup(text)!)
        strings[text] = copy
        return copy
    }

    func cString(_ text: String?) -> UnsafePointer<CChar>? { text.map { cString($0) } }

    /// A C array of `undo_param` for `parameters` (nil when empty).
    func parameterArray(_ parameters: [UndoPluginParameter]) -> UnsafePointer<undo_param>? {
        guard !parameters.isEmpty else { return nil }
        let array = UnsafeMutablePointer<undo_param>.allocate(capacity: parameters.count)
        for (index, parameter) in parameters.enumerated() {
            (array + index).initialize(to: undo_param(type: parameter.type.rawValue, reserved: 0,
                                                      name: cString(parameter.name)))
        }
        return UnsafePointer(array)
    }
}
