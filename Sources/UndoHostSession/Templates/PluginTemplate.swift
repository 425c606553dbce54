#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What `undo-host new-plugin NAME` writes: a plugin that builds and passes `undo-host check`
/// as written (a test builds and checks it), for the author to change.
struct PluginTemplate {
    /// The folder and file name: letters, digits, '-' and '_'.
    let name: String

    /// The plugin id's last label and the C identifiers' prefix ("my_plugin").
    var identifier: String { String(name.lowercased().map { $0 == "-" ? "_" : $0 }) }
    var pluginID: String { "org.example." + identifier }

    /// A name the templates can use as a folder, a file, a C identifier and an id label.
    static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII else { return false }
        return name.count <= 64 && name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
        }
    }

    /// The folder that holds undohost/undo_plugin.h: `Include` when run in a checkout, this
    /// checkout's Include when undo-host was built from it, else the include folder next to an
    /// installed undo-host.
    static func includeFolder(executable: String?) -> String? {
        var candidates: [String] = ["Include"]
        let source = #filePath  // <checkout>/Sources/UndoHostSession/Templates/PluginTemplate.swift
        let parts = source.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count > 4 { candidates.append(parts.dropLast(4).joined(separator: "/") + "/Include") }
        if let executable, let slash = executable.lastIndex(of: "/") {
            candidates.append(String(executable[..<slash]) + "/../include")
        }
        return candidates.first { access($0 + "/undohost/undo_plugin.h", R_OK) == 0 }
    }

    /// The checkout (for the Swift package's path dependency), when undo-host was built from one.
    static var checkoutFolder: String? {
        guard let include = includeFolder(executable: nil), include.hasSuffix("/Include") || include == "Include" else {
            return nil
        }
        if include == "Include" {
            var buffer = [CChar](repeating: 0, count: 4097)
            guard getcwd(&buffer, 4096) != nil else { return nil }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return String(include.dropLast("/Include".count))
    }

    /// The one-line build command of the C plugin, run in the folder above NAME/.
    func cBuildCommand(include: String) -> String {
        "cc -std=c99 -Wall -shared -fPIC -I \(include) -o \(name)/lib\(name).so \(name)/\(name).c"
    }

    /// NAME.c: documents that each hold one number in their slot (ABI 1.6); add (its inverse
    /// takes perform's arguments) and set (its inverse gets the old value from perform), both
    /// registered with the checked macros; describe_v2; close_document; save_document and
    /// load_document (ABI 1.7).
    func cSource(include: String) -> String {
        let p = identifier
        return """
        /*
         * \(name): an UndoHost plugin (written by undo-host new-plugin; change it freely).
         * Each document holds one number. Actions:
         *   \(p).add(amount: i64)  "Add"; the inverse takes the same arguments and subtracts.
         *   \(p).set(value: i64)   "Set Value"; perform hands the inverse the old value.
         * A document saves as 9 bytes and loads back (save_document, load_document).
         *
         * Build, check, load (docs/validating-a-plugin.md):
         *   \(cBuildCommand(include: include))
         *   undo-host check \(name)/lib\(name).so
         *   undo-host --plugins \(name)/lib\(name).so
         */
        #include <undohost/undo_plugin.h>

        #include <inttypes.h>
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>

        /* One document's state, kept by the host in the document's slot (call->document_data). */
        typedef struct \(p)_doc {
            uint64_t value; /* unsigned: adding wraps around instead of overflowing */
        } \(p)_doc;

        /* The call's document, made in its slot when first used; NULL when out of memory. */
        static \(p)_doc *\(p)_document(undo_call *call) {
            if (*call->document_data == NULL) *call->document_data = calloc(1, sizeof(\(p)_doc));
            return (\(p)_doc *)*call->document_data;
        }

        /* Each parameter list is declared once; UNDO_ACTION_PERFORM and UNDO_ACTION_INVERSE (in
         * init) refuse to compile a function whose prototype does not match its list. */
        UNDO_PARAMS(amount_params, (I64, amount));
        UNDO_PARAMS(value_params, (I64, value));
        UNDO_PARAMS(old_params, (I64, old));

        static int32_t \(p)_add(undo_call *call, int64_t amount) {
            \(p)_doc *doc = \(p)_document(call);
            if (doc == NULL) return call->host->report_error(call->host, UNDO_ENOMEM, "out of memory");
            doc->value += (uint64_t)amount;
            return UNDO_OK;
        }

        static int32_t \(p)_add_inverse(undo_call *call, int64_t amount) {
            \(p)_doc *doc = \(p)_document(call);
            if (doc == NULL) return call->host->report_error(call->host, UNDO_ENOMEM, "out of memory");
            doc->value -= (uint64_t)amount;
            return UNDO_OK;
        }

        static int32_t \(p)_set(undo_call *call, int64_t value) {
            \(p)_doc *doc = \(p)_document(call);
            undo_value old;
            int32_t rc;
            if (doc == NULL) return call->host->report_error(call->host, UNDO_ENOMEM, "out of memory");
            memset(&old, 0, sizeof old);
            old.type = UNDO_TYPE_I64;
            old.as.i64 = (int64_t)doc->value;
            if ((rc = call->host->set_inverse_arg(call, 0, &old)) != UNDO_OK) return rc;
            doc->value = (uint64_t)value;
            return UNDO_OK;
        }

        static int32_t \(p)_set_inverse(undo_call *call, int64_t old) {
            \(p)_doc *doc = \(p)_document(call);
            if (doc == NULL) return call->host->report_error(call->host, UNDO_ENOMEM, "out of memory");
            doc->value = (uint64_t)old;
            return UNDO_OK;
        }

        /* A document never used shows 0. */
        static int32_t \(p)_describe(undo_call *call, char *buffer, uint32_t capacity) {
            const \(p)_doc *doc = (const \(p)_doc *)*call->document_data;
            int length = snprintf(buffer, capacity, "value=%" PRId64, doc ? (int64_t)doc->value : (int64_t)0);
            if (length < 0) return call->host->report_error(call->host, UNDO_EINVAL, "snprintf failed");
            return (int32_t)length;
        }

        /* The host closed a document (or unloads the plugin): free its state. One opened later
         * under the same name starts with an empty slot, so at 0. */
        static void \(p)_close_document(undo_call *call) {
            free(*call->document_data);
            *call->document_data = NULL;
        }

        /* A document as bytes (ABI 1.7), so a host's journal can keep it instead of its steps:
         * a format version (1), then the number (8 bytes, little-endian). Change the version
         * when you change the format, and keep reading the old ones. */
        static int64_t \(p)_save_document(undo_call *call, uint8_t *buffer, uint64_t capacity) {
            const \(p)_doc *doc = (const \(p)_doc *)*call->document_data;
            uint64_t value = doc ? doc->value : 0;
            int i;
            if (capacity < 9) return 9; /* the host calls again with room */
            buffer[0] = 1;
            for (i = 0; i < 8; i++) buffer[1 + i] = (uint8_t)(value >> (8 * i));
            return 9;
        }

        static int32_t \(p)_load_document(undo_call *call, const uint8_t *bytes, uint64_t length) {
            \(p)_doc *doc;
            uint64_t value = 0;
            int i;
            if (length != 9 || bytes[0] != 1) {
                return call->host->report_error(call->host, UNDO_EINVAL, "not a saved \(name) document (format 1)");
            }
            for (i = 0; i < 8; i++) value |= (uint64_t)bytes[1 + i] << (8 * i);
            if ((doc = \(p)_document(call)) == NULL) return call->host->report_error(call->host, UNDO_ENOMEM, "out of memory");
            doc->value = value;
            return UNDO_OK;
        }

        static int32_t \(p)_init(const undo_host *host, void **plugin_data) {
            undo_action_type add, set;
            int32_t rc;

            memset(&add, 0, sizeof add);
            add.struct_size = (uint32_t)sizeof add;
            add.id = "add", add.name = "Add";
            UNDO_ACTION_PERFORM(&add, amount_params, \(p)_add);
            UNDO_ACTION_INVERSE_SAME(&add, amount_params, \(p)_add_inverse);

            memset(&set, 0, sizeof set);
            set.struct_size = (uint32_t)sizeof set;
            set.id = "set", set.name = "Set Value";
            UNDO_ACTION_PERFORM(&set, value_params, \(p)_set);
            UNDO_ACTION_INVERSE(&set, old_params, \(p)_set_inverse);

            if ((rc = host->register_action(host, &add)) != UNDO_OK) return rc;
            if ((rc = host->register_action(host, &set)) != UNDO_OK) return rc;
            *plugin_data = NULL; /* the documents are in their slots: no state of our own */
            return UNDO_OK;
        }

        static void \(p)_deinit(void *plugin_data) { (void)plugin_data; }

        static const undo_plugin_descriptor \(p)_descriptor = {
            (uint32_t)UNDO_PLUGIN_DESCRIPTOR_SIZE_V1_7, UNDO_ABI_VERSION_MAJOR, UNDO_ABI_VERSION_MINOR, 0,
            "\(pluginID)", "\(name)", "0.1.0", \(p)_init, \(p)_deinit, NULL, {0}, \(p)_describe,
            \(p)_close_document, \(p)_save_document, \(p)_load_document, NULL, NULL, NULL};

        UNDO_PLUGIN_EXPORT const undo_plugin_descriptor *undo_plugin_entry(void) { return &\(p)_descriptor; }

        """
    }

    /// The Swift package: Package.swift (UndoPluginKit by a path dependency on the checkout's
    /// PluginKit package, which needs no other package: it builds offline) and
    /// Sources/NAME/Plugin.swift.
    func swiftFiles(checkout: String) -> [(path: String, text: String)] {
        let package = """
        // swift-tools-version:6.0
        // \(name): an UndoHost plugin in Swift (written by undo-host new-plugin).
        // Build it with the toolchain undo-host was built with: Swift has no stable ABI on Linux,
        // and the plugin runs on the Swift runtime the host loaded.
        import PackageDescription

        let package = Package(
            name: "\(name)",
            products: [.library(name: "\(name)", type: .dynamic, targets: ["\(name)"])],
            // The kit and the ABI only (no package to fetch); a path dependency's package
            // identity is its folder's name ("PluginKit").
            dependencies: [.package(path: "\(checkout)/PluginKit")],
            targets: [
                .target(name: "\(name)", dependencies: [
                    .product(name: "UndoPluginKit", package: "PluginKit"),
                    .product(name: "UndoPluginABI", package: "PluginKit"),
                ]),
            ],
            swiftLanguageModes: [.v6]
        )

        """
        let source = """
        // \(name): each document holds one number; add(amount) adds to it, and its inverse
        // (the same function, called in the inverse phase) subtracts. A document saves as bytes
        // (a format version, then the number) and loads back. Build, check, load:
        //   swift build --package-path \(name)
        //   undo-host check \(name)/.build/debug/lib\(name).so
        //   undo-host --plugins \(name)/.build/debug/lib\(name).so
        import UndoPluginABI
        import UndoPluginKit

        /// The documents of one host instance.
        final class Documents { var values: [String: Int64] = [:] }

        /// perform and inverse: the step's arguments come in the declared order and types.
        let add: UndoActionFunction = { call, args in
            let documents = try call.state(Documents.self)
            let amount = try args[0].int64
            // Wrapping (&+, &-): an overflow would stop the host's process.
            let value = documents.values[call.context, default: 0]
            documents.values[call.context] = call.phase == .inverse ? value &- amount : value &+ amount
        }

        let plugin = UndoPlugin(
            id: "\(pluginID)", name: "\(name)", version: "0.1.0",
            actions: [UndoPluginAction(id: "add", name: "Add", parameters: [.i64("amount")], perform: add, inverse: add)],
            makeState: { _ in Documents() },
            describe: { documents, context in "value=\\(documents.values[context, default: 0])" },
            closeDocument: { documents, context in documents.values[context] = nil },
            saveDocument: { documents, context in
                let value = UInt64(bitPattern: documents.values[context, default: 0])
                return [1] + (0..<8).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
            },
            loadDocument: { documents, context, bytes in
                guard bytes.count == 9, bytes[0] == 1 else {
                    throw UndoPluginError(.invalidArgument, "not a saved \(name) document (format 1)")
                }
                let value = bytes.dropFirst().reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                documents.values[context] = Int64(bitPattern: value)
            })

        @c(undo_plugin_entry)
        public func undoPluginEntry() -> UnsafePointer<undo_plugin_descriptor>? { plugin.descriptor }

        """
        return [("Package.swift", package), ("Sources/\(name)/Plugin.swift", source)]
    }
}
