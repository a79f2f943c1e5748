import Foundation
import Hummingbird

/// Collaborative tags: `POST /remote.php/dav/systemtags/` with `{"name","userVisible","userAssignable"}`
/// creates one (201, `Content-Location`; 409 when the name exists), `PROPFIND systemtags/` lists them
/// (`oc:id`, `oc:display-name`, `oc:user-visible`, `oc:user-assignable`, `oc:can-assign`),
/// `PUT`/`DELETE systemtags-relations/files/<fileid>/<tagid>` assign and unassign, and
/// `PROPFIND systemtags-relations/files/<fileid>` lists a file's tags. A `REPORT oc:filter-files`
/// with `oc:systemtag` rules finds the files carrying every tag named.
struct SystemTagsEndpoint {
    let core: ServerCore
    let user: String
    let collection: String
    let path: [String]

    func respond(_ req: ServerRequest) throws -> Response {
        guard core.isNextcloud else { throw SabreError.notFound(collection) }
        if collection == "systemtags" { return try tags(req) }
        guard path.first == "files", path.count >= 2, let fileID = Int64(path[1]) else { throw SabreError.notFound(path.joined(separator: "/")) }
        let visible = core.withState { state -> Bool in
            guard state.fileOwner(fileID) == user || state.mounts(for: user, groups: core.configuration.groups).contains(where: {
                state.files.isInside(fileID, $0.share.fileID)
            }) else { return false }
            return true
        }
        guard visible else { throw SabreError.notFound(path[1]) }
        switch (req.method, path.count) {
        case ("PROPFIND", 2):
            let text = core.withState { state -> String in
                let ids = (state.tags.relations[fileID] ?? []).sorted()
                return listing(ids.compactMap { state.tags.tags[$0] }, base: "/remote.php/dav/systemtags-relations/files/\(fileID)", req: req)
            }
            return Reply.xml(text)
        case ("PUT", 3), ("DELETE", 3):
            guard let tagID = Int(path[2]) else { throw SabreError.notFound(path[2]) }
            return try core.withState { state -> Response in
                guard state.tags.tags[tagID] != nil else { throw SabreError.notFound(path[2]) }
                if req.method == "PUT" {
                    if state.tags.relations[fileID]?.contains(tagID) == true { throw SabreError.conflict("Tag already assigned") }
                    state.tags.relations[fileID, default: []].insert(tagID)
                    return Reply.empty(201)
                }
                guard state.tags.relations[fileID]?.remove(tagID) != nil else { throw SabreError.notFound(path[2]) }
                return Reply.empty(204)
            }
        default:
            throw SabreError.methodNotAllowed("Method \(req.method) is not allowed here")
        }
    }

    private func tags(_ req: ServerRequest) throws -> Response {
        switch (req.method, path.count) {
        case ("POST", 0):
            guard case .object? = OCSValue.parse(json: req.body), let value = OCSValue.parse(json: req.body),
                let name = value["name"]?.text, !name.isEmpty
            else { throw SabreError.badRequest("Missing \"name\" attribute") }
            let flag = { (key: String) -> Bool in
                if case .bool(let set)? = value[key] { return set }
                return true
            }
            let tag = try core.withState { state -> TagStore.Tag in
                if state.tags.tags.values.contains(where: { $0.name == name }) {
                    throw SabreError.conflict("Tag already exists")
                }
                return state.tags.add(name: name, userVisible: flag("userVisible"), userAssignable: flag("userAssignable"))
            }
            return Reply.empty(201, headers: [("Content-Location", "/remote.php/dav/systemtags/\(tag.id)")])
        case ("PROPFIND", 0):
            let text = core.withState { state in listing(state.tags.tags.keys.sorted().compactMap { state.tags.tags[$0] }, base: "/remote.php/dav/systemtags", req: req, withRoot: true) }
            return Reply.xml(text)
        case ("PROPFIND", 1):
            guard let id = Int(path[0]), let tag = core.withState({ $0.tags.tags[id] }) else { throw SabreError.notFound(path[0]) }
            return Reply.xml(listing([tag], base: "/remote.php/dav/systemtags", req: req))
        case ("DELETE", 1):
            guard let id = Int(path[0]) else { throw SabreError.notFound(path[0]) }
            try core.withState { state in
                guard state.tags.tags.removeValue(forKey: id) != nil else { throw SabreError.notFound(path[0]) }
                for key in state.tags.relations.keys { state.tags.relations[key]?.remove(id) }
            }
            return Reply.empty(204)
        default:
            throw SabreError.methodNotAllowed("Method \(req.method) is not allowed here")
        }
    }

    private func listing(_ tags: [TagStore.Tag], base: String, req: ServerRequest, withRoot: Bool = false) -> String {
        var writer = MultistatusWriter(flavor: core.flavor)
        if withRoot { writer.response(href: base + "/", found: [(.d("resourcetype"), .xml(MultistatusWriter.collection))]) }
        let names: [QName] = [.o("id"), .o("display-name"), .o("user-visible"), .o("user-assignable"), .o("can-assign")]
        for tag in tags {
            let values: [QName: String] = [
                .o("id"): String(tag.id), .o("display-name"): tag.name, .o("user-visible"): tag.userVisible ? "true" : "false",
                .o("user-assignable"): tag.userAssignable ? "true" : "false", .o("can-assign"): tag.userAssignable ? "true" : "false",
            ]
            writer.response(href: "\(base)/\(tag.id)", found: names.compactMap { name in values[name].map { (name, .text($0)) } })
        }
        return writer.finish()
    }
}
