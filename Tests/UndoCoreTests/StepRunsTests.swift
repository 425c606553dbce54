import Testing
@testable import UndoCore

/// The step list keeps each step's serial, cost and time in runs beside the commands
/// (`StepRuns`): held to plain arrays through random changes, and counted (a history pushed one
/// step after another keeps one run of each, however long).
@Suite struct StepRunsTests {

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func runsMatchAnArrayThroughRandomChanges(seed: UInt64) {
        var random = SplitMix(seed: seed)
        var list = StepList()
        var model: [(serial: UInt32, cost: Int32, time: UInt64)] = []
        var nextSerial: UInt32 = 1
        func made() -> (serial: UInt32, cost: Int32, time: UInt64) {
            // Mostly consecutive serials and equal costs and times (long runs), sometimes not.
            if Int.random(in: 0..<5, using: &random) == 0 { nextSerial &+= UInt32.random(in: 2...9, using: &random) }
            defer { nextSerial &+= 1 }
            return (nextSerial, Int32.random(in: 16...17, using: &random), UInt64.random(in: 0...1, using: &random) * 1_000_000)
        }
        for _ in 0..<3_000 {
            switch Int.random(in: 0..<11, using: &random) {
            case 0...3:
                let step = made()
                list.append(Step(command: Vacancy(), serial: step.serial, cost: step.cost, time: step.time))
                model.append(step)
            case 4 where !model.isEmpty:
                let step = made(), index = Int.random(in: 0...model.count, using: &random)
                list.insert(Step(command: Vacancy(), serial: step.serial, cost: step.cost, time: step.time), at: index)
                model.insert(step, at: index)
            case 5 where !model.isEmpty:
                let index = Int.random(in: 0..<model.count, using: &random)
                let removed = list.remove(at: index)
                #expect(removed.serial == model.remove(at: index).serial)
            case 6 where !model.isEmpty:
                #expect(list.removeFirst().serial == model.removeFirst().serial)
            case 7 where !model.isEmpty:
                #expect(list.removeLast().serial == model.removeLast().serial)
            case 8 where model.count > 1:
                let from = Int.random(in: 0..<model.count, using: &random), to = Int.random(in: 0..<model.count, using: &random)
                list.move(from: from, to: to)
                model.insert(model.remove(at: from), at: to)
            case 9 where !model.isEmpty:
                let index = Int.random(in: 0..<model.count, using: &random)
                let made = (index..<Int.random(in: index...model.count, using: &random)).map { _ in made() }
                list.replace(from: index, with: made.map { Step(command: Vacancy(), serial: $0.serial, cost: $0.cost, time: $0.time) })
                model.replaceSubrange(index..<(index + made.count), with: made)
                if Bool.random(using: &random) {
                    list.setTime(7, at: model.count - 1)
                    model[model.count - 1].time = 7
                }
            case 10 where !model.isEmpty:
                let index = Int.random(in: 0...model.count, using: &random)
                list.removeSuffix(from: index)
                model.removeSubrange(index...)
            default:
                break
            }
            list.checkInvariants()
            #expect(list.count == model.count)
        }
        // Read by index (searching the runs) and by walking them.
        for index in model.indices {
            #expect(list.serial(at: index) == model[index].serial && list.cost(at: index) == model[index].cost
                    && list.time(at: index) == model[index].time, "step \(index)")
        }
        #expect(list.map(\.serial) == model.map(\.serial))
        // Ranges read run by run, and serials found run by run.
        for _ in 0..<50 where !model.isEmpty {
            let lower = Int.random(in: 0...model.count, using: &random), upper = Int.random(in: lower...model.count, using: &random)
            let read = list.steps(in: lower..<upper)
            #expect(read.map(\.serial) == model[lower..<upper].map(\.serial) && read.map(\.time) == model[lower..<upper].map(\.time)
                    && read.map(\.cost) == model[lower..<upper].map(\.cost), "steps \(lower)..<\(upper)")
            let serial = UInt32.random(in: 0...nextSerial + 2, using: &random)
            #expect(list.firstIndex(ofSerial: serial) == model.firstIndex { $0.serial == serial }, "serial \(serial)")
        }
        #expect(list.map(\.cost) == model.map(\.cost))
        #expect(list.map(\.time) == model.map(\.time))
    }

    /// A history pushed one step after another (consecutive serials, one command type, one
    /// clock tick) keeps one run of each field, and one slot of 40 bytes per step.
    @Test func pushedStepsShareOneRunOfEachField() throws {
        #expect(MemoryLayout<any UndoCommand>.stride == 40)
        let counter = Counter()
        let stack = UndoStack.testing()
        for _ in 0..<5_000 {
            try stack.perform(Add(counter: counter, amount: 1))
            stack.breakCoalescing()
        }
        try stack.undo(count: 2_000)
        try stack.redo(count: 1_000)
        let runs = stack.access { ($0.steps.serials.runCount, $0.steps.costs.runCount, $0.steps.times.runCount, $0.steps.commands.count) }
        #expect(runs.0 == 1 && runs.1 == 1 && runs.2 == 1 && runs.3 == 5_000)
        stack.checkInvariants()
    }

    /// A limit drops the oldest step on every push: the runs left behind are removed in bulk, so
    /// they stay bounded, and each step's time stays its own.
    @Test func droppedRunsStayBounded() throws {
        let counter = Counter()
        let clock = ManualUndoClock()
        let stack = UndoStack.testing(clock: clock, countLimit: 50)
        var largest = 0
        for _ in 0..<5_000 {
            clock.advance(milliseconds: 1)
            try stack.perform(Add(counter: counter, amount: 1))
            stack.breakCoalescing()
            largest = max(largest, stack.access { $0.steps.times.starts.count })
        }
        #expect(stack.count == 50)
        #expect(largest <= 2 * 50 + 16)
        let times = stack.access { record in record.steps.indices.map { record.steps.time(at: $0) } }
        #expect(times == (4_951...5_000).map { UInt64($0) * 1_000_000 })
        stack.checkInvariants()
    }

    /// A move past other steps where every step has a time of its own (a person's edits) moves
    /// the time entries in place: as many runs after it as before, the other steps untouched.
    @Test func aMoveAmongStepsOfTheirOwnTimesKeepsTheRunCount() {
        var list = StepList()
        for serial in 1...1_000 {
            list.append(Step(command: Vacancy(), serial: UInt32(serial), cost: Int32(serial % 3), time: UInt64(serial) * 1_000_000))
        }
        let before = list.times.runCount
        list.move(from: 500, to: 510)
        list.move(from: 900, to: 899)
        #expect(before == 1_000 && list.times.runCount == 1_000)
        #expect(list.time(at: 510) == 501_000_000 && list.time(at: 500) == 502_000_000 && list.time(at: 899) == 901_000_000)
        #expect(list.serial(at: 510) == 501 && list.serial(at: 0) == 1 && list.serial(at: 999) == 1_000)
        list.checkInvariants()
    }
}
