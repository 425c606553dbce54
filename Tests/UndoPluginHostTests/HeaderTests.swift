import Foundation
import Testing
import UndoPluginABI
@testable import UndoPluginHost

/// The header compiles cleanly as C99 and C++17, agrees with what the host reads, and the
/// sample plugins export exactly one symbol.
@Suite struct HeaderTests {
    /// Uses every macro and type of both headers, and prints the layout numbers.
    static let program = """
        #include <undohost/undo_plugin.h>
        #include <stdio.h>

        static int32_t noop(undo_call *call, int64_t x) { (void)call; (void)x; return UNDO_OK; }
        static int32_t every(undo_call *call, int32_t a, uint32_t b, int64_t c, uint64_t d, double e,
                             const char *f, const void *g, uint64_t g_size) {
            (void)call, (void)a, (void)b, (void)c, (void)d, (void)e, (void)f, (void)g, (void)g_size;
            return UNDO_OK;
        }
        static int32_t nothing(undo_call *call) { (void)call; return UNDO_OK; }
        static int32_t merge(undo_call *call, const undo_value *a, const undo_value *b, const undo_value *c,
                             const undo_value *d) { (void)call, (void)a, (void)b, (void)c, (void)d; return 0; }

        static const undo_param params[] = {{UNDO_TYPE_I64, 0, "x"}};
        UNDO_PARAMS(every_params, (I32, a), (U32, b), (I64, c), (U64, d), (F64, e), (STRING, f), (BYTES, g));
        UNDO_PARAMS(sixteen, (I32, a1), (I32, a2), (I32, a3), (I32, a4), (I32, a5), (I32, a6), (I32, a7), (I32, a8),
                    (I32, a9), (I32, a10), (I32, a11), (I32, a12), (I32, a13), (I32, a14), (I32, a15), (I32, a16));
        UNDO_PARAMS_NONE(no_params);

        UNDO_PLUGIN_EXPORT const undo_plugin_descriptor *undo_plugin_entry(void) { return NULL; }

        int main(void) {
            undo_action_type type = {(uint32_t)UNDO_ACTION_TYPE_SIZE_V1, 0, "id", "Name", params, 1, 0, NULL,
                                     UNDO_FN(noop), UNDO_FN(noop), NULL, NULL, {NULL, NULL, NULL, NULL},
                                     UNDO_MERGE_BY_FUNCTION, 0};
            undo_host host;
            undo_value value;
            undo_action_type checked;
            host.struct_size = (uint32_t)UNDO_HOST_SIZE_V1;
            UNDO_ACTION_PERFORM(&checked, every_params, every);
            UNDO_ACTION_INVERSE(&checked, no_params, nothing);
            UNDO_ACTION_MERGE(&checked, merge);
            printf("checked=%u,%s,%u,%u,%d,%u\\n", (unsigned)checked.param_count, checked.params[6].name,
                   (unsigned)checked.params[6].type, (unsigned)checked.inverse_param_count,
                   checked.inverse_params == NULL, (unsigned)(sixteen__count + sizeof sixteen / sizeof sixteen[0]));
            UNDO_ACTION_INVERSE_SAME(&checked, every_params, every);
            printf("descriptor_1_6=%u call_1_6=%u descriptor_1_7=%u host_1_7=%u\\n",
                   (unsigned)UNDO_PLUGIN_DESCRIPTOR_SIZE_V1_6, (unsigned)UNDO_CALL_SIZE_V1_6,
                   (unsigned)UNDO_PLUGIN_DESCRIPTOR_SIZE_V1_7, (unsigned)UNDO_HOST_SIZE_V1_7);
            printf("descriptor_1_8=%u host_1_8=%u document_max=%llu\\n", (unsigned)UNDO_PLUGIN_DESCRIPTOR_SIZE_V1_8,
                   (unsigned)UNDO_HOST_SIZE_V1_8, (unsigned long long)UNDO_MAX_DOCUMENT_SIZE);
            value.type = UNDO_TYPE_BYTES;
            value.as.bytes.size = 0;
            printf("action_1_2=%u append=%d\\n", (unsigned)UNDO_ACTION_TYPE_SIZE_V1_2, UNDO_MERGE_BY_APPEND);
            printf("host_1_1=%u host_1_3=%u host_1_5=%u has_key=%d has_names=%d\\n", (unsigned)UNDO_HOST_SIZE_V1_1,
                   (unsigned)UNDO_HOST_SIZE_V1_3, (unsigned)UNDO_HOST_SIZE_V1_5,
                   (int)UNDO_STRUCT_HAS(&host, undo_host, set_coalescing_key),
                   (int)UNDO_STRUCT_HAS(&host, undo_host, register_action_name));
            printf("descriptor=%u action=%u host=%u call=%u value=%u has_record=%d version=%d\\n",
                   (unsigned)UNDO_PLUGIN_DESCRIPTOR_SIZE_V1, (unsigned)UNDO_ACTION_TYPE_SIZE_V1,
                   (unsigned)UNDO_HOST_SIZE_V1, (unsigned)UNDO_CALL_SIZE_V1, (unsigned)sizeof value,
                   (int)UNDO_STRUCT_HAS(&host, undo_host, record), UNDO_ABI_VERSION);
            printf("%s %s %s\\n", undo_error_name(UNDO_EUTF8), undo_error_message(UNDO_EUTF8), undo_error_name(-999));
            return type.param_count == 1 && undo_plugin_entry() == NULL ? 0 : 1;
        }
        """

    func compileAndRun(compiler: String, standard: String, suffix: String) throws -> String {
        let folder = Fixtures.temporaryFolder()
        let source = folder + "/header_test." + suffix
        try Self.program.write(toFile: source, atomically: true, encoding: .utf8)
        let binary = folder + "/header_test"
        let build = try Fixtures.run(compiler, ["-std=\(standard)", "-Wall", "-Wextra", "-pedantic", "-Werror",
                                                "-I", Fixtures.include, "-o", binary, source])
        #expect(build.status == 0, "\(compiler) -std=\(standard) failed:\n\(build.errors)")
        #expect(build.errors.isEmpty, "warnings: \(build.errors)")
        let run = try Fixtures.run(binary, [])
        #expect(run.status == 0)
        return run.output
    }

    var expectedOutput: String {
        "checked=7,g,7,0,1,32\n"
            + "descriptor_1_6=\(MemoryLayout<undo_plugin_descriptor>.offset(of: \.save_document)!) call_1_6=\(MemoryLayout<undo_call>.size) "
            + "descriptor_1_7=\(MemoryLayout<undo_plugin_descriptor>.offset(of: \.save_document_v2)!) host_1_7=\(MemoryLayout<undo_host>.offset(of: \.write_document)!)\n"
            + "descriptor_1_8=\(MemoryLayout<undo_plugin_descriptor>.size) host_1_8=\(MemoryLayout<undo_host>.size) document_max=4294967296\n"
            + "action_1_2=\(MemoryLayout<undo_action_type>.size) append=1\n"
            + "host_1_1=\(MemoryLayout<undo_host>.offset(of: \.set_coalescing_key)!) "
            + "host_1_3=\(MemoryLayout<undo_host>.offset(of: \.register_action_name)!) "
            + "host_1_5=\(MemoryLayout<undo_host>.offset(of: \.set_obsolete)!) has_key=0 has_names=0\n"
            + "descriptor=\(PluginDescriptor.minimumSize) action=\(ActionTypeReader.minimumSize) "
            + "host=\(MemoryLayout<undo_host>.offset(of: \.set_close_handler)!) call=\(MemoryLayout<undo_call>.offset(of: \.document_data)!) "
            + "value=\(MemoryLayout<undo_value>.size) has_record=1 version=1008\n"
            + "UNDO_EUTF8 invalid UTF-8 or embedded NUL in string UNDO_EUNKNOWN\n"
    }

    @Test func compilesAsStrictC99() throws {
        #expect(try compileAndRun(compiler: "cc", standard: "c99", suffix: "c") == expectedOutput)
    }

    @Test func compilesAsStrictCxx17() throws {
        #expect(try compileAndRun(compiler: "c++", standard: "c++17", suffix: "cpp") == expectedOutput)
    }

    /// The 1.0 sizes the host checks against are the header's V1 macros, and today's structs
    /// are exactly that size plus what later minors appended (a test to update, not loosen,
    /// when a minor appends fields).
    @Test func fixedMinimumSizesMatchTheLayout() {
        // 1.6 appended describe_v2 and close_document to the descriptor, document_data to the call.
        #expect(Int(PluginDescriptor.minimumSize) == MemoryLayout<undo_plugin_descriptor>.offset(of: \.describe_v2)!)
        // 1.7 appended save_document and load_document.
        #expect(Int(PluginDescriptor.minimumSize) + 16 == MemoryLayout<undo_plugin_descriptor>.offset(of: \.save_document)!)
        // 1.8 appended save_document_v2, load_document_v2 and describe_range: the end of today's descriptor.
        #expect(MemoryLayout<undo_plugin_descriptor>.offset(of: \.load_document)! + 8 == MemoryLayout<undo_plugin_descriptor>.offset(of: \.save_document_v2)!)
        #expect(MemoryLayout<undo_plugin_descriptor>.offset(of: \.save_document_v2)! + 8 == MemoryLayout<undo_plugin_descriptor>.offset(of: \.load_document_v2)!)
        #expect(MemoryLayout<undo_plugin_descriptor>.offset(of: \.load_document_v2)! + 8 == MemoryLayout<undo_plugin_descriptor>.offset(of: \.describe_range)!)
        #expect(MemoryLayout<undo_plugin_descriptor>.offset(of: \.describe_range)! + 8 == MemoryLayout<undo_plugin_descriptor>.size)
        // ... and write_document and read_document to the host's table.
        #expect(MemoryLayout<undo_host>.offset(of: \.write_document)! + 8 == MemoryLayout<undo_host>.offset(of: \.read_document)!)
        #expect(MemoryLayout<undo_host>.offset(of: \.read_document)! + 8 == MemoryLayout<undo_host>.size)
        #expect(MemoryLayout<undo_call>.offset(of: \.document_data)! + 8 == MemoryLayout<undo_call>.size)
        // 1.2 appended merge_mode (and a reserved word) to the action type, after the 1.0 fields.
        #expect(Int(ActionTypeReader.minimumSize) == MemoryLayout<undo_action_type>.offset(of: \.merge_mode)!)
        #expect(Int(ActionTypeReader.minimumSize) + 8 == MemoryLayout<undo_action_type>.size)
        #expect(MemoryLayout<undo_value>.size == 24)
        // 1.1 appended set_close_handler to the host table, after the 1.0 reserved slots.
        #expect(MemoryLayout<undo_host>.offset(of: \.set_close_handler)! == MemoryLayout<undo_host>.offset(of: \.reserved)! + 8 * 8)
        // 1.3 appended set_coalescing_key after it; 1.5 register_action_name.
        #expect(MemoryLayout<undo_host>.offset(of: \.set_coalescing_key)! == MemoryLayout<undo_host>.offset(of: \.set_close_handler)! + 8)
        #expect(MemoryLayout<undo_host>.offset(of: \.register_action_name)! == MemoryLayout<undo_host>.offset(of: \.set_coalescing_key)! + 8)
        // 1.7 appended set_obsolete, set_description and locale; 1.8 write_document and
        // read_document (checked above): the end of today's table.
        #expect(MemoryLayout<undo_host>.offset(of: \.set_obsolete)! == MemoryLayout<undo_host>.offset(of: \.register_action_name)! + 8)
        #expect(MemoryLayout<undo_host>.offset(of: \.set_description)! == MemoryLayout<undo_host>.offset(of: \.set_obsolete)! + 8)
        #expect(MemoryLayout<undo_host>.offset(of: \.locale)! + 8 == MemoryLayout<undo_host>.offset(of: \.write_document)!)
        #expect(MemoryLayout<undo_param>.size == 16)
    }

    @Test func valueTypesAndErrorCodesMatchTheHeader() {
        #expect(ActionValueType.i32.rawValue == UInt32(UNDO_TYPE_I32))
        #expect(ActionValueType.u32.rawValue == UInt32(UNDO_TYPE_U32))
        #expect(ActionValueType.i64.rawValue == UInt32(UNDO_TYPE_I64))
        #expect(ActionValueType.u64.rawValue == UInt32(UNDO_TYPE_U64))
        #expect(ActionValueType.f64.rawValue == UInt32(UNDO_TYPE_F64))
        #expect(ActionValueType.string.rawValue == UInt32(UNDO_TYPE_STRING))
        #expect(ActionValueType.bytes.rawValue == UInt32(UNDO_TYPE_BYTES))
        #expect(ErrorReport.name(of: UNDO_OK) == "UNDO_OK")
        #expect(ErrorReport.name(of: UNDO_EREENTRANT) == "UNDO_EREENTRANT")
        #expect(ErrorReport.message(of: UNDO_ENOTFOUND) == "not found")
        // Every code from 0 down to the last one has a name: the table has no holes.
        for code in Int32(UNDO_ECRASHED)...0 { #expect(ErrorReport.name(of: code) != "UNDO_EUNKNOWN") }
    }

    /// Exactly one exported symbol of ours: the linker's own markers aside.
    static func exportedSymbols(_ path: String) throws -> [String] {
        let result = try Fixtures.run("nm", ["-D", "--defined-only", path])
        #expect(result.status == 0, "nm failed: \(result.errors)")
        let linkerMarkers: Set<String> = ["__bss_start", "_edata", "_end", "_init", "_fini"]
        return result.output.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }
            .filter { !linkerMarkers.contains($0) }
    }

    @Test(arguments: ["libUndoPluginTextEditor.so", "libUndoPluginCanvas.so"])
    func samplePluginExportsOnlyItsEntry(_ file: String) throws {
        #expect(try Self.exportedSymbols(Fixtures.products + "/" + file) == ["undo_plugin_entry"])
    }

    @Test func thirdPartyPluginExportsOnlyItsEntry() throws {
        let plugin = try Fixtures.buildPlugin("thirdparty_counter.c")
        #expect(try Self.exportedSymbols(plugin) == ["undo_plugin_entry"])
    }

    /// A plugin written in C++ exports the same unmangled entry.
    @Test func cxxPluginExportsUnmangledEntry() throws {
        let folder = Fixtures.temporaryFolder()
        let source = folder + "/plugin.cpp"
        try """
            #include <undohost/undo_plugin.h>
            namespace { undo_plugin_descriptor descriptor; int helper() { return 1; } }
            UNDO_PLUGIN_EXPORT const undo_plugin_descriptor *undo_plugin_entry(void) {
                return helper() ? &descriptor : nullptr;
            }
            """.write(toFile: source, atomically: true, encoding: .utf8)
        let output = folder + "/libplugin.so"
        let build = try Fixtures.run("c++", ["-std=c++17", "-Wall", "-Wextra", "-pedantic", "-Werror", "-shared",
                                             "-fPIC", "-fvisibility=hidden", "-I", Fixtures.include, "-o", output, source])
        #expect(build.status == 0, "\(build.errors)")
        #expect(try Self.exportedSymbols(output) == ["undo_plugin_entry"])
    }
}
