import Foundation

extension DocumentWriter {
    /// Every permission, as the `permissions` enricher lists it for an administrator.
    static let allPermissions = ["Read", "Write", "ReadChildren", "AddChildren", "Everything", "RemoveChildren", "ReadWrite"]

    /// `contextParameters` for the enrichers asked (`acls`, `permissions`,
    /// `breadcrumb`, `documentURL`, `hasFolderishChild`; others are ignored).
    func contextParameters(of doc: StoredDocument) -> NXJSON {
        var m: [(String, NXJSON)] = []
        let asked = options.enrichers
        if asked.contains("acls") { m.append(("acls", acls(of: doc))) }
        if asked.contains("permissions") { m.append(("permissions", .array(Self.allPermissions.map(NXJSON.string)))) }
        if asked.contains("breadcrumb") {
            let chain = repository.ancestors(of: doc.uid).filter { !$0.isRoot } + (doc.isRoot ? [] : [doc])
            m.append(("breadcrumb", .object([
                ("entity-type", .string("documents")),
                ("entries", .array(chain.map { document($0, enrich: false) })),
            ])))
        }
        if asked.contains("documentURL") {
            m.append(("documentURL", .string("\(URL(string: baseURL)?.path ?? "")/nxdoc/default/\(doc.uid)")))
        }
        if asked.contains("hasFolderishChild") {
            m.append(("hasFolderishChild", .bool(repository.children(of: doc.uid).contains { $0.isFolderish && !$0.isTrashed })))
        }
        return .object(m)
    }

    /// `[{"name":"local","aces":[…]},{"name":"inherited","aces":[…]}]`, empty ACLs left out.
    func acls(of doc: StoredDocument) -> NXJSON {
        var result: [NXJSON] = doc.acls.filter { !$0.aces.isEmpty }.map {
            .object([("name", .string($0.name)), ("aces", .array($0.aces.map(ace)))])
        }
        let inherited = repository.ancestors(of: doc.uid).reversed().flatMap { $0.acls.flatMap(\.aces) }
        if !inherited.isEmpty {
            result.append(.object([("name", .string("inherited")), ("aces", .array(inherited.map(ace)))]))
        }
        return .array(result)
    }

    private func ace(_ ace: StoredACE) -> NXJSON {
        .object([
            ("id", .string(ace.id)),
            ("username", .string(ace.username)),
            ("externalUser", .bool(ace.isExternal)),
            ("permission", .string(ace.permission)),
            ("granted", .bool(ace.granted)),
            ("creator", ace.creator.map(NXJSON.string) ?? .null),
            ("begin", ace.begin.map { .string(DateCodec.w3c($0)) } ?? .null),
            ("end", ace.end.map { .string(DateCodec.w3c($0)) } ?? .null),
            ("status", .string(ace.status(now: now))),
        ])
    }
}
