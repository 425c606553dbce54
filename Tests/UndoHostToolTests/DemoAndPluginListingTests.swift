import Foundation
import Testing
import UndoTestSupport

/// `undo-host demo` and `undo-host plugins`: what a newcomer runs first.
@Suite("demo and plugins modes")
struct DemoAndPluginListingTests {
    @Test("The demo plays typing, bold, a drag, undo, redo and revert, showing the menu and documents")
    func demo() throws {
        let run = try UndoHostProcess.run(["demo"])
        #expect(run.status == 0)
        #expect(run.standardError == "")
        let output = run.standardOutput
        for expected in [
            "undo-host> text.insert 0 \"Dear Ann,\"",
            "  Undo Typing    Ctrl+Z",
            "  Dear Ann, <b>thank you</b> for the sketch.",
            "  Undo Move    Ctrl+Z",
            "Undo Move\nsketch (Canvas)\n  #1 rect x=10 y=10 w=40 h=30 color=#ff0000\n  [#2 circle x=80 y=20 w=16 h=16 color=#0000ff]",
            "Redo Move\nsketch (Canvas)\n  #1 rect x=10 y=10 w=40 h=30 color=#ff0000\n  [#2 circle x=95 y=25 w=16 h=16 color=#0000ff]",
            "Revert to Saved\nletter.txt (Text Editor)\n  Dear Ann, [thank you] for the sketch.",
            "Alert: Undo Revert to Saved",
        ] {
            #expect(output.contains(expected), "missing: \(expected)")
        }
    }

    @Test("plugins lists each plugin and its actions with names and signatures")
    func pluginListing() throws {
        let run = try UndoHostProcess.run(UndoHostProcess.samplePlugins + ["plugins"])
        #expect(run.status == 0)
        let folder = UndoHostProcess.productsFolder.path
        #expect(run.standardOutput == """
            org.undohost.text 1.0.0 "Text Editor"
              from \(folder)/libUndoPluginTextEditor.so
              text.insert(position: i64, text: string)  Typing          coalesces
              text.delete(position: i64, length: i64)   Delete          coalesces
              text.bold(position: i64, length: i64)     Bold
              text.italic(position: i64, length: i64)   Italic
            org.undohost.canvas 1.0.0 "Canvas"
              from \(folder)/libUndoPluginCanvas.so
              canvas.add(id: u64, kind: string, x: f64, y: f64, width: f64, height: f64, color: u32)  Add Shape
              canvas.remove(id: u64)                                                                  Delete Shape
              canvas.move(id: u64, dx: f64, dy: f64)                                                  Move            coalesces
              canvas.recolor(id: u64, color: u32)                                                     Color Change    coalesces

            """)
    }

    @Test("UNDOHOST_PLUGIN_PATH replaces the bundled plugins' folder")
    func pluginPathVariable() throws {
        let empty = try TemporaryFolder()
        let run = try UndoHostProcess.run(["plugins"], environment: ["UNDOHOST_PLUGIN_PATH": empty.url.path])
        #expect(run.status == 0)
        #expect(run.standardOutput == "No plugins are loaded.\n")
    }

    @Test("load and unload at run time: unloading takes the plugin's steps out of the history")
    func loadAndUnload() throws {
        let canvas = UndoHostProcess.productsFolder.appendingPathComponent("libUndoPluginCanvas.so").path
        let text = UndoHostProcess.productsFolder.appendingPathComponent("libUndoPluginTextEditor.so").path
        let run = try UndoHostProcess.run(["--plugins", text], input: """
            load \(canvas)
            canvas.add 1 "rect" 0 0 1 1 0
            text.insert 0 "kept"
            unload canvas
            history
            canvas.add 2 "rect" 0 0 1 1 0
            """)
        #expect(run.status == 1)
        #expect(run.standardOutput == """
            Loaded org.undohost.canvas 1.0.0 (Canvas): 4 actions
            Unloaded org.undohost.canvas: 1 step left the history
            History (1 of 1 done)
                 Start
            > 2  Typing "kept"  untitled

            """)
        #expect(run.standardError.hasPrefix("<stdin>:6: UNDO_ENOTFOUND: unknown action canvas.add\n"))
    }
}
