// The process an isolated plugin runs in (docs/trust-model.md, "Isolated plugins"): started by
// the host with the socket to it as descriptor 3, the checked plugin file as descriptor 4 and the
// socket for the steps the plugin records on its own as descriptor 5.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import UndoPluginHost

let arguments = CommandLine.arguments
guard arguments.count == 4, let socket = Int32(arguments[1]), let file = Int32(arguments[2]),
      let records = Int32(arguments[3]) else {
    let message = "undo-plugin-runner: started by an UndoHost host to run one isolated plugin; not a program to run by hand\n"
    _ = message.withCString { write(2, $0, strlen($0)) }
    exit(64)
}
// A plugin's crash ends this process at once with its signal, which the host names: no crash
// handler of the runtime's (a backtrace takes seconds, past the host's watchdog).
for crash in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS] {
    signal(crash, SIG_DFL)
}
exit(IsolatedPluginServer.serve(socket: socket, file: file, records: records))
