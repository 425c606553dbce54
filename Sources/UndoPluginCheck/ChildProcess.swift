#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs a program with posix_spawn and collects its output, killing it when it outlives its
/// time: how `undo-host check` runs each test, so a plugin that crashes or hangs is reported
/// instead of taking the validator with it.
struct ChildProcess {
    enum End: Equatable {
        case exited(Int32)
        case signaled(Int32)
        case timedOut(seconds: Double)
    }

    var end: End
    var standardOutput: String
    var standardError: String

    /// Runs `executable` with `arguments` (standard input empty) for at most `timeout` seconds.
    /// - Returns: how it ended and what it wrote, or why it could not be started.
    static func run(_ executable: String, _ arguments: [String], timeout: Double) -> Result<ChildProcess, SpawnError> {
        var output: [Int32] = [0, 0]
        var errors: [Int32] = [0, 0]
        guard pipe(&output) == 0 else { return .failure(SpawnError(errno)) }
        guard pipe(&errors) == 0 else {
            close(output[0]); close(output[1])
            return .failure(SpawnError(errno))
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        for descriptor in output + errors { posix_spawn_file_actions_addclose(&actions, descriptor) }

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        // The environment, without the Swift runtime's backtrace of the crash (of the host, not
        // the plugin, and long): the end of the child's own messages is shown instead.
        var environment: [UnsafeMutablePointer<CChar>?] = [strdup("SWIFT_BACKTRACE=enable=no")]
        var entry = environ
        while let variable = entry.pointee {
            if strncmp(variable, "SWIFT_BACKTRACE=", 16) != 0 { environment.append(strdup(variable)) }
            entry += 1
        }
        environment.append(nil)
        defer { for pointer in environment { free(pointer) } }
        let status = posix_spawn(&pid, executable, &actions, nil, argv, environment)
        close(output[1])
        close(errors[1])
        guard status == 0 else {
            close(output[0]); close(errors[0])
            return .failure(SpawnError(status))
        }

        var collected: [[UInt8]] = [[], []]
        var open = [output[0], errors[0]]
        let deadline = now() + timeout
        var timedOut = false
        var buffer = [UInt8](repeating: 0, count: 65536)
        while open.contains(where: { $0 >= 0 }) {
            let remaining = deadline - now()
            if remaining <= 0 {
                timedOut = true
                break
            }
            var polled = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&polled, nfds_t(polled.count), Int32(min(remaining * 1000, 1000)) + 1)
            if ready < 0 && errno != EINTR { break }
            for (index, entry) in polled.enumerated() where entry.fd >= 0 && entry.revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, 65536) }
                if count > 0 {
                    collected[index] += buffer[0..<count]
                } else if count == 0 || errno != EINTR {
                    close(entry.fd)
                    open[index] = -1
                }
            }
        }
        if timedOut { kill(pid, SIGKILL) }
        for descriptor in open where descriptor >= 0 { close(descriptor) }
        var waitStatus: Int32 = 0
        while waitpid(pid, &waitStatus, 0) < 0 && errno == EINTR {}
        let end: End
        if timedOut {
            end = .timedOut(seconds: timeout)
        } else if waitStatus & 0x7F == 0 {
            end = .exited((waitStatus >> 8) & 0xFF)
        } else {
            end = .signaled(waitStatus & 0x7F)
        }
        return .success(ChildProcess(end: end, standardOutput: String(decoding: collected[0], as: UTF8.self),
                                     standardError: String(decoding: collected[1], as: UTF8.self)))
    }

    struct SpawnError: Error, CustomStringConvertible {
        var code: Int32
        init(_ code: Int32) { self.code = code }
        var description: String { String(cString: strerror(code)) }
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// "signal 11 (Segmentation fault)"
    static func describe(signal: Int32) -> String {
        "signal \(signal)" + (strsignal(signal).map { " (\(String(cString: $0)))" } ?? "")
    }

    /// This program's own file, to run it again as a child.
    static var currentExecutable: String? {
        var buffer = [CChar](repeating: 0, count: 4097)
        let length = readlink("/proc/self/exe", &buffer, 4096)
        guard length > 0 else { return nil }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
