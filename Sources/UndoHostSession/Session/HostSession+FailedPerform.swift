import UndoCore
import UndoPluginHost

/// A perform that fails leaves the history unchanged; a plugin that changed its document before
/// failing leaves the document out of step with its history, and the prompt says so
/// (`changedDespiteFailure`). Telling costs nothing in proportion to the document when the
/// perform succeeds: a long document of a plugin that describes ranges is known before the
/// perform by its extent only (one describe_range of an empty range), and a failure is judged by
/// the changes the plugin reported during the call (``PluginActionError/reportedChanges``) and by
/// the extent after it. A short document, or one of a plugin without describe_range, is compared
/// whole before and after, as its whole view is cheap (short) or the only one there is.
extension HostSession {
    /// What the session knows of a document before a perform.
    enum DocumentBeforePerform {
        /// Its whole view (a short document, or a plugin without describe_range).
        case whole(String)
        /// Its extent in the plugin's units (a document longer than ``excerptThreshold`` of a
        /// plugin with describe_range).
        case extent(Int64)
        /// Nothing: the plugin does not describe its documents.
        case unknown
    }

    /// The document `context` as far as the session looks at it before a perform.
    /// - Complexity: O(1) plugin work for a long document of a plugin with describe_range
    ///   (describe_range of an empty range); otherwise the plugin's whole describe.
    func documentBeforePerform(_ context: UndoContext, plugin pluginID: String) -> DocumentBeforePerform {
        guard host.plugins.first(where: { $0.id == pluginID })?.canDescribe == true else { return .unknown }
        if host.describesRanges(plugin: pluginID) == true,
           let extent = try? host.view(of: context, plugin: pluginID, range: 0..<0).extent,
           extent > Self.excerptThreshold
        {
            return .extent(extent)
        }
        guard let whole = try? host.describe(context, plugin: pluginID) else { return .unknown }
        DocumentViewWork.note(whole.unicodeScalars.count)
        return .whole(whole)
    }

    /// The document the failed perform changed, when the session can tell: one it reported a
    /// change in (the perform's own document first), or the perform's document when its whole
    /// view or (for a long document) its extent differs from `before`; `nil` otherwise, which
    /// does not prove the document unchanged (a long document changed in place without a
    /// report keeps its extent).
    /// - Complexity: O(reported changes) and, for `.whole`, the plugin's whole describe; for
    ///   `.extent`, one describe_range of an empty range.
    func documentChanged(by failure: PluginActionError, before: DocumentBeforePerform, in context: UndoContext,
                         plugin pluginID: String) -> String?
    {
        let reported = failure.reportedChanges
        if let change = reported.first(where: { $0.context == context }) ?? reported.first { return change.context.name }
        switch before {
        case .whole(let text):
            guard let after = try? host.describe(context, plugin: pluginID) else { return nil }
            DocumentViewWork.note(after.unicodeScalars.count)
            return after != text ? context.name : nil
        case .extent(let extent):
            guard let after = try? host.view(of: context, plugin: pluginID, range: 0..<0).extent else { return nil }
            return after != extent ? context.name : nil
        case .unknown:
            return nil
        }
    }
}
