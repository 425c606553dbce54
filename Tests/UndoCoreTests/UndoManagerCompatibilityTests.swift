import Testing
@testable import UndoCore

/// The pattern of Apple's documentation for UndoManager, ported: a model object whose setter
/// registers its own inverse, so undo and redo both go through the same setter.
final class Employee {
    var undoManager: UndoCore.UndoManager
    var salary: Int {
        didSet {
            undoManager.registerUndo(withTarget: self) { target in target.salary = oldValue }
            undoManager.setActionName("Salary Change")
        }
    }
    init(salary: Int, undoManager: UndoCore.UndoManager) { self.salary = salary; self.undoManager = undoManager }
}

@Suite struct UndoManagerCompatibility {
    @Test func theAppleStylePatternPortsUnchanged() {
        let manager = UndoCore.UndoManager()
        let employee = Employee(salary: 100, undoManager: manager)
        employee.salary = 150
        employee.salary = 200
        #expect(manager.canUndo && manager.undoMenuItemTitle == "Undo Salary Change")
        manager.undo()
        #expect(employee.salary == 150 && manager.canRedo)
        #expect(manager.redoMenuItemTitle == "Redo Salary Change")
        manager.undo()
        #expect(employee.salary == 100 && !manager.canUndo)
        manager.redo()
        manager.redo()
        #expect(employee.salary == 200 && !manager.canRedo)
        manager.undo()
        #expect(employee.salary == 150)
    }

    @Test func groupingRegistrationAndRemoval() {
        let manager = UndoCore.UndoManager()
        let a = Employee(salary: 1, undoManager: manager)
        let b = Employee(salary: 10, undoManager: manager)
        manager.beginUndoGrouping()
        a.salary = 2
        b.salary = 20
        manager.setActionName("Raise All")
        manager.endUndoGrouping()
        #expect(manager.undoActionName == "Raise All")
        manager.undo()
        #expect(a.salary == 1 && b.salary == 10)
        manager.redo()
        #expect(a.salary == 2 && b.salary == 20)

        manager.disableUndoRegistration()
        a.salary = 3
        manager.enableUndoRegistration()
        #expect(manager.isUndoRegistrationEnabled)
        manager.undo()
        #expect(a.salary == 1)  // the disabled change was not recorded; the group put back 1

        manager.redo()
        b.salary = 30
        manager.removeAllActions(withTarget: b)
        manager.undo()                       // b's own step is gone; the group keeps a's part
        #expect(b.salary == 30 && a.salary == 1)
        manager.levelsOfUndo = 5
        #expect(manager.levelsOfUndo == 5)
        manager.removeAllActions()
        #expect(!manager.canUndo && !manager.canRedo)
    }

    @Test func undoClosesAnOpenTopLevelGroupFirst() {
        let manager = UndoCore.UndoManager()
        let a = Employee(salary: 1, undoManager: manager)
        manager.beginUndoGrouping()
        a.salary = 5
        manager.undo()
        #expect(a.salary == 1 && manager.groupingLevel == 0)
    }
}
