import Foundation
import HTTPProviderKit
import NextcloudTestServer
import ProviderAPI
import Testing
import WebDAVProvider

/// The dialect's OCS side against the loopback server: shares and the user of a bearer token.
@Suite("ownCloud/Nextcloud OCS flows on the loopback server")
struct OCSFlowTests {
    @Test("shares: a public link with password and expiry, user and group shares, list, update, delete, errors")
    func shares() async throws {
        let cloud = try await LoopbackNextcloud.start()
        defer { Task { await cloud.stop() } }
        let (provider, folder) = try await cloud.scratch()
        let file = try await provider.upload(DataSource(string: "shared"), to: .root, name: "s.txt", options: UploadOptions())
        let expiry = Date(timeIntervalSince1970: 4_102_444_800)  // 2100-01-01
        let link = try await provider.share(file.path, with: ShareRequest(kind: .publicLink, password: "link pass 1", expires: expiry))
        #expect(link.kind == .publicLink)
        #expect(link.passwordProtected)
        #expect(link.expires == expiry)
        #expect(link.path == file.path)
        #expect(link.url != nil)
        // The file's own link refuses a stranger; the password opens the share over public WebDAV
        // (`public.php/webdav`, Basic TOKEN:password), so it is the one asked that the server keeps.
        let download = try #require(link.downloadURL)
        #expect(download.absoluteString == (link.url?.absoluteString ?? "") + "/download")
        let refused = try await AsyncHTTPClientTransport.shared.send(TransportRequest(method: .GET, url: download))
        #expect(refused.status == 401)
        await refused.body.discard()
        let token = try #require(link.properties["token"])
        var opened = TransportRequest(method: .GET, url: cloud.server.baseURL.appendingPathComponent("public.php/webdav/"))
        opened.headers.add(name: "Authorization", value: "Basic " + Data("\(token):link pass 1".utf8).base64EncodedString())
        let answer = try await AsyncHTTPClientTransport.shared.send(opened)
        #expect(answer.status == 200)
        #expect(String(buffer: try await answer.body.collect(upTo: 1 << 10)) == "shared")
        let user = try await provider.share(file.path, with: ShareRequest(kind: .user("bob"), permissions: [.read, .write]))
        #expect(user.kind == .user("bob"))
        #expect(user.permissions.contains(.write))
        let group = try await provider.share(file.path, with: ShareRequest(kind: .group("staff")))
        #expect(group.kind == .group("staff"))
        let listed = try await provider.shares(of: file.path)
        #expect(Set(listed.map(\.id)) == Set([link.id, user.id, group.id]))
        #expect(listed.allSatisfy { $0.path == file.path })
        let requests = cloud.server.requests()
        let create = try #require(requests.last { $0.method == "POST" && $0.path.hasSuffix("/shares") })
        #expect(create.header("OCS-APIRequest") == "true")
        // OCS paths are the user's: the scratch folder is part of them.
        let query = try #require(requests.last { $0.method == "GET" && $0.path.hasSuffix("/shares") }?.query)
        #expect(query.contains("path=%2F\(folder)%2Fs.txt"))

        let updated = try await provider.updateShare(user, permissions: .read)
        #expect(updated.permissions == .read)
        let later = Date(timeIntervalSince1970: 4_133_980_800)  // 2101-01-01
        let relinked = try await provider.updateShare(link, password: "", expires: later)
        #expect(relinked.passwordProtected == false)
        #expect(relinked.expires == later)
        let unexpiring = try await provider.updateShare(relinked, password: "new pass 2", clearExpiry: true)
        #expect(unexpiring.passwordProtected)
        #expect(unexpiring.expires == nil)
        try await provider.revoke(group)
        #expect(Set(try await provider.shares(of: file.path).map(\.id)) == Set([link.id, user.id]))
        do {
            _ = try await provider.share(id: group.id)
            Issue.record("a deleted share was found")
        } catch let error as ProviderError {
            #expect(error.code == .notFound)
        }
        do {
            _ = try await provider.share("/missing.txt", with: ShareRequest(kind: .publicLink))
            Issue.record("sharing a missing file succeeded")
        } catch let error as ProviderError {
            #expect(error.code == .notFound)
        }
    }

    @Test("app passwords and bearer tokens log in; a bearer token finds its user through OCS")
    func credentials() async throws {
        let cloud = try await LoopbackNextcloud.start(appPasswords: ["app-pw-1": LoopbackNextcloud.user], bearerTokens: ["tok-1": LoopbackNextcloud.user])
        defer { Task { await cloud.stop() } }
        let app = try await cloud.provider(credentials: .appPassword(username: LoopbackNextcloud.user, password: "app-pw-1"))
        _ = try await app.list(.root, page: .first)
        let root = try await OwnCloudProviderFactory(flavor: .nextcloud).connect(ProviderConfiguration(
            url: cloud.server.baseURL, credentials: .bearer(accessToken: "tok-1", refreshToken: nil)))
        let provider = try #require(root as? WebDAVProvider)
        #expect(provider.dialect?.user == LoopbackNextcloud.user)
        _ = try await provider.upload(DataSource(string: "b"), to: .root, name: "bearer.txt", options: UploadOptions())
        #expect(cloud.server.contents(user: LoopbackNextcloud.user, path: "bearer.txt") == Data("b".utf8))
        do {
            _ = try await cloud.provider(credentials: .basic(username: LoopbackNextcloud.user, password: "wrong"))
            Issue.record("a wrong password connected")
        } catch let error as ProviderError {
            #expect(error.code == .unauthorized)
        }
    }

}
