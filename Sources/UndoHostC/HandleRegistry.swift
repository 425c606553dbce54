#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import UndoHostAPI

/// The live histories, so a stale or foreign `undo_history *` is refused instead of followed.
///
/// A handle is never a pointer to memory: it is a token made of a magic number, a slot and the
/// slot's generation, which the C code only passes back. Looking it up checks all three under a
/// lock; destroying bumps the generation, so an old handle to a reused slot is stale too.
///
/// The lock is a pthread read-write lock: every C call looks its handle up, so lookups share
/// it, and ThreadSanitizer sees its hand-overs. (`Synchronization.Mutex` takes a contended
/// lock inside the kernel, out of TSan's sight, which then reports the table as raced.)
enum HandleRegistry {
    // Bits of a handle (64-bit platforms): magic 63...48, generation 47...20, slot 19...0.
    private static let magic: UInt = 0x5D0A
    private static let slotBits = 20
    private static let generationBits = 28
    static let maximumHistories = 1 << slotBits - 1

    private struct Slot {
        var generation: UInt = 1
        var history: ClientHistory?
    }

    private struct Table {
        var slots: [Slot] = []
        var free: [Int] = []
    }

    // Only touched with `lock` held: read-locked to look up, write-locked to change.
    nonisolated(unsafe) private static var table = Table()
    nonisolated(unsafe) private static let lock: UnsafeMutablePointer<pthread_rwlock_t> = {
        let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)
        precondition(pthread_rwlock_init(lock, nil) == 0, "pthread_rwlock_init failed")
        return lock
    }()

    private static func reading<Result>(_ body: (borrowing Table) -> Result) -> Result {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return body(table)
    }

    private static func changing<Result>(_ body: (inout Table) -> Result) -> Result {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return body(&table)
    }

    /// Registers a history and returns its handle.
    /// - Throws: UNDO_ELIMIT when too many histories are alive.
    static func add(_ history: ClientHistory) throws(ClientFailure) -> OpaquePointer {
        precondition(MemoryLayout<UInt>.size == 8, "handles need 64-bit pointers")
        let bits: UInt? = changing { table in
            let index: Int
            if let reused = table.free.popLast() {
                index = reused
            } else {
                guard table.slots.count < maximumHistories else { return nil }
                table.slots.append(Slot())
                index = table.slots.count - 1
            }
            table.slots[index].history = history
            return magic << 48 | table.slots[index].generation << UInt(slotBits) | UInt(index + 1)
        }
        guard let bits else {
            throw ClientFailure(Int32(UNDO_ELIMIT), "more than \(maximumHistories) histories are alive")
        }
        return OpaquePointer(bitPattern: bits)!
    }

    /// The live history behind `handle`, or nil for NULL, stale and foreign handles.
    static func lookup(_ handle: OpaquePointer?) -> ClientHistory? {
        guard let (index, generation) = decode(handle) else { return nil }
        return reading { table in
            guard index < table.slots.count, table.slots[index].generation == generation else { return nil }
            return table.slots[index].history
        }
    }

    /// Removes the history behind `handle`; nil when it is not live.
    static func remove(_ handle: OpaquePointer?) -> ClientHistory? {
        guard let (index, generation) = decode(handle) else { return nil }
        return changing { table -> ClientHistory? in
            guard index < table.slots.count, table.slots[index].generation == generation,
                  let history = table.slots[index].history else { return nil }
            table.slots[index].history = nil
            table.slots[index].generation = table.slots[index].generation % (1 << UInt(generationBits) - 1) + 1
            table.free.append(index)
            return history
        }
    }

    private static func decode(_ handle: OpaquePointer?) -> (index: Int, generation: UInt)? {
        guard let handle else { return nil }
        let bits = UInt(bitPattern: handle)
        guard bits >> 48 == magic else { return nil }
        let slot = Int(bits & (1 << UInt(slotBits) - 1))
        guard slot > 0 else { return nil }
        return (slot - 1, (bits >> UInt(slotBits)) & (1 << UInt(generationBits) - 1))
    }
}
