import Foundation

/// The `load_shared_element_data` JSON of pydio-core 8.2.5.
enum ShareJSON {
    static func render(links: [ShareStore.Link], first: ShareStore.Link, root: String, now: Int64) -> String {
        let name = PathTools.name(first.path)
        let virtual = "/\(first.virtualFolder)/\(name)"
        let entries = links.map { link in
            JSONText.object([
                ("ID", JSONText.string(link.internalUser)), ("TYPE", JSONText.string("tmp_user")),
                ("LABEL", JSONText.string("[Minisite User] \(name)")), ("RIGHT", JSONText.string("r")),
                ("HIDDEN", "true"), ("AVATAR", JSONText.string("")),
            ])
        }
        let linkObjects = links.map { link -> (String, String) in
            let hashValue = link.hash.allSatisfy(\.isASCII) && Int(link.hash) != nil && !link.hash.hasPrefix("0")
                ? link.hash : JSONText.string(link.hash)
            // A password makes the link non-public; an expiry adds its date (recording 57).
            var pairs: [(String, String)] = [
                ("public", JSONText.string(link.password == nil ? "true" : "false")), ("disable_download", "false"), ("hash", hashValue),
                ("hash_is_shorten", "false"), ("internal_user_id", JSONText.string(link.internalUser)),
                ("public_link", JSONText.string("\(root)/public/\(link.hash)")),
            ]
            if link.expireDays > 0 {
                pairs.append(("expire_time", JSONText.string(UnixTime.minute(link.created + Int64(link.expireDays) * 86_400))))
            }
            pairs += [("expire_after", String(link.expireDays)), ("is_expired", isExpired(link, now: now) ? "true" : "false")]
            if link.password != nil { pairs.append(("has_password", "true")) }
            if let limit = link.downloadLimit {
                pairs.append(("download_limit", String(limit)))
                pairs.append(("download_counter", String(link.downloads)))
            }
            return (link.hash, JSONText.object(pairs))
        }
        return JSONText.object([
            ("repositoryId", JSONText.string(first.repositoryID)),
            ("users_number", String(links.count)),
            ("label", JSONText.string(name)),
            ("description", JSONText.string("Shared by \(first.owner) \(UnixTime.relative(first.created, now: now))")),
            ("entries", "[" + entries.joined(separator: ",") + "]"),
            ("element_watch", "false"),
            ("repository_url", JSONText.string("\(root)/ws-\(slug(name))/")),
            ("content_filter", JSONText.object([
                ("filters", JSONText.object([(first.path, JSONText.string(virtual))])),
                ("virtualPaths", JSONText.object([(virtual, JSONText.string(first.path))])),
            ])),
            ("share_owner", JSONText.string(first.owner)),
            ("share_scope", JSONText.string("private")),
            ("links", JSONText.object(linkObjects)),
        ])
    }

    /// Expired by date or download count.
    static func isExpired(_ link: ShareStore.Link, now: Int64) -> Bool {
        if link.expireDays > 0, now > link.created + Int64(link.expireDays) * 86_400 { return true }
        if let limit = link.downloadLimit, link.downloads >= limit { return true }
        return false
    }

    /// `hello.txt` → `hello-txt`.
    static func slug(_ name: String) -> String {
        var out = ""
        for character in name.lowercased() {
            if character.isASCII, character.isLetter || character.isNumber {
                out.append(character)
            } else if !out.hasSuffix("-") {
                out.append("-")
            }
        }
        while out.hasSuffix("-") { out.removeLast() }
        return out.isEmpty ? "share" : out
    }
}
