import Foundation
import Testing

@testable import StrataCLI

@Suite("where the command line keeps its files")
struct StrataDirectoriesTests {
    @Test("$HOME is the home (a script or test can give the tool its own), and XDG folders win when absolute")
    func followsTheEnvironment() {
        #expect(StrataDirectories.config(["HOME": "/tmp/h"]).path == "/tmp/h/.config/strata")
        #expect(StrataDirectories.cache(["HOME": "/tmp/h"]).path == "/tmp/h/.cache/strata")
        #expect(StrataDirectories.config(["HOME": "/tmp/h", "XDG_CONFIG_HOME": "/x/conf"]).path == "/x/conf/strata")
        #expect(StrataDirectories.cache(["HOME": "/tmp/h", "XDG_CACHE_HOME": "/x/cache"]).path == "/x/cache/strata")
        // Relative XDG values are ignored, as the base directory specification says.
        #expect(StrataDirectories.cache(["HOME": "/tmp/h", "XDG_CACHE_HOME": "rel"]).path == "/tmp/h/.cache/strata")
        // No usable $HOME: the account's home directory.
        let account = FileManager.default.homeDirectoryForCurrentUser.path
        #expect(StrataDirectories.home([:]).path == account)
        #expect(StrataDirectories.home(["HOME": ""]).path == account)
    }
}
