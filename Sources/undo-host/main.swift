#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import UndoHostSession

// Everything lives in UndoHostSession, so tests can drive the same code in-process.
exit(UndoHostTool.main(Array(CommandLine.arguments.dropFirst())))
