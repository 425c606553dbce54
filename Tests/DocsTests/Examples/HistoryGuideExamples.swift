// docs:begin undo-manager
import UndoCore

// docs:end undo-manager
extension DocExamples {
    /// docs/using-the-history-from-swift.md, "Porting code that uses Apple's UndoManager".
    static func undoManager() throws {
        // docs:begin undo-manager
        final class Employee {
            let undoManager: UndoCore.UndoManager
            var salary: Int {
                didSet {
                    undoManager.registerUndo(withTarget: self) { $0.salary = oldValue }
                    undoManager.setActionName("Salary Change")
                }
            }
            init(salary: Int, undoManager: UndoCore.UndoManager) { self.salary = salary; self.undoManager = undoManager }
        }

        let employee = Employee(salary: 50_000, undoManager: UndoCore.UndoManager())
        employee.salary = 60_000
        print(employee.undoManager.undoMenuItemTitle)
        employee.undoManager.undo()                  // the handler sets 50 000, registering the redo
        print(employee.salary, employee.undoManager.redoMenuItemTitle)
        employee.undoManager.redo()
        print(employee.salary)
        // docs:end undo-manager
    }

    /// docs/using-the-history-from-swift.md, "Menu titles and locales".
    static func titles() throws {
        // docs:begin titles
        let english = UndoTitleFormatter()
        print(english.undoTitle(for: "change of address."))
        print(english.redoTitle(for: nil))
        print(UndoTitleFormatter(maximumNameLength: 12).undoTitle(for: "replace all occurrences"))
        print(UndoTitleFormatter(locale: .korean).undoTitle(for: "입력"))

        let german = try UndoLocale(parsing: """
            identifier = de
            undo = Widerrufen
            redo = Wiederholen
            undo.named = „%@“ widerrufen
            redo.named = „%@“ wiederholen
            cancel = Abbrechen
            alert.nothing = Nichts zu widerrufen
            capitalize = false
            """)
        print(UndoTitleFormatter(locale: german).undoTitle(for: "Eingabe"))
        // docs:end titles
    }

    /// docs/using-the-history-from-swift.md, "Groups, save points and jumps".
    static func groupsAndSavePoints() throws {
        // docs:begin groups-and-save-points
        final class Canvas { var shapes: [String] = [] }

        struct AddShape: UndoCommand {
            let canvas: Canvas
            let shape: String
            var name: String? { "Add Shape" }
            func perform(_ changes: inout UndoChanges) throws { canvas.shapes.append(shape) }
            func undo(_ changes: inout UndoChanges) throws { canvas.shapes.removeLast() }
        }

        let canvas = Canvas()
        let history = UndoStack()
        try history.perform(AddShape(canvas: canvas, shape: "circle"))
        try history.markSaved()
        try history.beginGroup(named: "Paste Shapes")
        try history.perform(AddShape(canvas: canvas, shape: "square"))
        try history.perform(AddShape(canvas: canvas, shape: "star"))
        try history.endGroup()
        print(history.undoMenuTitle, history.isDirty(), canvas.shapes)
        try history.revertToSaved()                  // one new step: undoable itself
        print(history.undoMenuTitle, history.isDirty(), canvas.shapes)
        try history.move(to: 0)                      // before the first step
        print(canvas.shapes, history.count, "steps, all redoable")
        // docs:end groups-and-save-points
    }
}
