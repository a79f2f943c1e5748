import Foundation

/// Where the command line keeps its files, by the XDG base directory conventions: `$HOME` when
/// set (so a script or a test can give the tool a home of its own), else the account's home.
enum StrataDirectories {
    /// `$HOME`, else the account's home directory.
    static func home(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let home = environment["HOME"], home.hasPrefix("/") { return URL(fileURLWithPath: home, isDirectory: true) }
        return FileManager.default.homeDirectoryForCurrentUser
    }

    /// `$XDG_CONFIG_HOME/strata`, else `~/.config/strata`: saved remotes and credentials.
    static func config(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        base("XDG_CONFIG_HOME", ".config", environment).appendingPathComponent("strata", isDirectory: true)
    }

    /// `$XDG_CACHE_HOME/strata`, else `~/.cache/strata`: the default cache folder.
    static func cache(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        base("XDG_CACHE_HOME", ".cache", environment).appendingPathComponent("strata", isDirectory: true)
    }

    /// The variable's folder when it is an absolute path (the specification ignores relative ones), else `fallback` in the home.
    private static func base(_ variable: String, _ fallback: String, _ environment: [String: String]) -> URL {
        if let value = environment[variable], value.hasPrefix("/") { return URL(fileURLWithPath: value, isDirectory: true) }
        return home(environment).appendingPathComponent(fallback, isDirectory: true)
    }
}
