import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Questions asked on the terminal at sign-in: the user name, and the password without echo.
enum PasswordPrompt {
    /// Whether questions can be asked: standard input and standard error are a terminal.
    static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDERR_FILENO) == 1 }

    /// Asks `prompt` on stderr and reads a line with echo; `nil` without a terminal or at end of input.
    static func line(_ prompt: String) -> String? {
        guard isInteractive else { return nil }
        Output.standardError(Data(TerminalText.escape(prompt).utf8))
        return readLine(strippingNewline: true)
    }

    /// Asks `prompt` on stderr and reads a line with echo off (restored after, and on Ctrl-C);
    /// `nil` without a terminal or at end of input.
    static func secret(_ prompt: String) -> String? {
        guard isInteractive else { return nil }
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return nil }
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        TerminalState.saved = saved
        let previous = signal(SIGINT) { _ in
            if var saved = TerminalState.saved { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
            _exit(130)
        }
        // Echo off before the prompt shows, so that nothing typed after it is echoed; what was
        // typed ahead is kept (TCSANOW, not TCSAFLUSH), as a pasted password may be.
        tcsetattr(STDIN_FILENO, TCSANOW, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSANOW, &saved)
            signal(SIGINT, previous)
            TerminalState.saved = nil
            Output.standardError(Data("\n".utf8))
        }
        Output.standardError(Data(TerminalText.escape(prompt).utf8))
        return readLine(strippingNewline: true)
    }
}

/// The terminal settings to restore when Ctrl-C interrupts a password prompt.
private enum TerminalState {
    nonisolated(unsafe) static var saved: termios?
}
