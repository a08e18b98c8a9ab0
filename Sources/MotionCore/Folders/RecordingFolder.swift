#if canImport(Glibc)
import Glibc
#endif
import MotionSystem

/// The one rule for a folder given where a recording is expected (docs/dialects.md, "Folders"):
///
/// - a folder that is an app's export (a Sensor Logger folder, an unzipped phyphox export: a
///   dialect recognises it as an archive) is one recording;
/// - any other folder is each recording inside it, in byte order of their paths, each reported
///   on its own: files a dialect recognises from their first bytes (gzip-compressed ones
///   included; a zip when it holds an export), and sub-folders that are exports; with
///   `recursive`, the other sub-folders are searched the same way;
/// - names starting with `.` are skipped; symbolic links are followed, each folder visited once
///   (by device and inode), so a link loop ends, and each file taken once: by a path without a
///   link when it has one, else by the first in byte order;
/// - every other entry (a file no dialect recognises, a sub-folder without `recursive`) is
///   listed in ``Listing/skipped`` and skipped. Several exports in one folder are several recordings.
///
/// With a forced dialect (`--input-format`, `--columns`, `--layout`) every regular file is a recording.
public enum RecordingFolder {
    /// What a folder holds.
    public struct Listing: Sendable, Equatable {
        /// The recordings' paths (the folder's path, `/`, and the names below it), in byte order.
        public var recordings: [String] = []
        /// The entries skipped, with why (`notes.txt (not a recording)`), in byte order.
        public var skipped: [String] = []
    }

    /// Whether `path` is an app's export that reads as one recording: a dialect recognises it as
    /// an archive (its files and those one level down, as an unzipped export nests them), and no
    /// sub-folder of it is recognised on its own (then the exports are the sub-folders).
    public static func isExport(_ path: String) -> Bool {
        guard recognizedAsArchive(path) else { return false }
        guard let entries = try? Directory.entries(of: path) else { return true }
        return !entries.contains { e in
            !e.name.hasPrefix(".") && kind(of: path + "/" + e.name) == .directory && recognizedAsArchive(path + "/" + e.name)
        }
    }

    private static func recognizedAsArchive(_ path: String) -> Bool {
        guard let archive = try? DirectoryArchive(path: path) else { return false }
        return RecordingDialects.all.contains { $0.recognizes(archive: archive) }
    }

    /// The recordings inside the folder `path` (which is not an export).
    /// - Parameters:
    ///   - recursive: search sub-folders that are not exports too.
    ///   - anyFile: every regular file is a recording (a dialect was forced).
    /// - Throws: ``SystemError`` when `path` cannot be listed.
    public static func list(_ path: String, recursive: Bool, anyFile: Bool = false) throws(SystemError) -> Listing {
        var listing = Listing()
        var visited: Set<FileIdentity> = []
        if let id = try? FileIdentity.of(path: path) { visited.insert(id) }
        var found: [Found] = []
        try walk(path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path, relative: "", recursive: recursive, anyFile: anyFile,
                 viaLink: false, visited: &visited, found: &found, into: &listing, top: true)
        // Byte order of the whole paths (`a.b` before `a/x`, which a walk folder by folder would not give).
        found.sort { Array($0.path.utf8).lexicographicallyPrecedes(Array($1.path.utf8)) }
        var taken: [FileIdentity: Int] = [:]
        var kept: [Found] = []
        for f in found {
            guard let id = f.identity, let i = taken[id] else {
                if let id = f.identity { taken[id] = kept.count }
                kept.append(f)
                continue
            }
            if kept[i].viaLink && !f.viaLink { kept[i] = f }
        }
        listing.recordings = kept.map(\.path).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        return listing
    }

    /// A recording found: its path, identity, and whether a symbolic link leads to it.
    private struct Found {
        var path: String
        var identity: FileIdentity?
        var viaLink: Bool
    }

    private static func walk(_ dir: String, relative: String, recursive: Bool, anyFile: Bool, viaLink: Bool, visited: inout Set<FileIdentity>,
                             found: inout [Found], into listing: inout Listing, top: Bool) throws(SystemError) {
        let entries: [Directory.Entry]
        do { entries = try Directory.entries(of: dir) } catch where !top { listing.skipped.append(relative + " (cannot be listed: \(error))"); return }
        for entry in entries.sorted(by: { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }) where !entry.name.hasPrefix(".") {
            let path = dir + "/" + entry.name
            let shown = relative.isEmpty ? entry.name : relative + "/" + entry.name
            guard let kind = kind(of: path), let identity = try? FileIdentity.of(path: path) else {
                listing.skipped.append(shown + " (not a file or folder)")
                continue
            }
            let link = viaLink || isLink(path)
            if kind == .directory {
                guard visited.insert(identity).inserted else { continue }  // a link to a folder already visited
                if isExport(path) {
                    found.append(Found(path: path, identity: identity, viaLink: link))
                } else if recursive {
                    try walk(path, relative: shown, recursive: true, anyFile: anyFile, viaLink: link, visited: &visited, found: &found, into: &listing, top: false)
                } else {
                    listing.skipped.append(shown + "/ (a folder: --recursive searches it)")
                }
            } else if anyFile || recognizes(path) {
                found.append(Found(path: path, identity: identity, viaLink: link))
            } else {
                listing.skipped.append(shown + " (not a recording MotionBatch recognises)")
            }
        }
    }

    private enum Kind { case regular, directory }

    /// Whether `path` itself is a symbolic link (`lstat(2)`).
    private static func isLink(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFLNK
    }

    /// What `path` is, symbolic links followed (`stat(2)`); nil for anything else (a FIFO, a
    /// device, a dangling link).
    private static func kind(of path: String) -> Kind? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        switch st.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .directory
        default: return nil
        }
    }

    /// Whether a dialect recognises the file from its first bytes (decompressed when gzip; a zip
    /// when a dialect recognises it as an export).
    static func recognizes(_ path: String) -> Bool {
        do {
            var source = try RecordingInput.path(path).open()
            var prefix = try RecordingReader.readPrefix(source, limit: RecordingDialects.sniffLength)
            if GzipSource.isGzip(prefix) {
                source = try GzipSource(inner: source, prefix: prefix)
                prefix = try RecordingReader.readPrefix(source, limit: RecordingDialects.sniffLength)
            } else if ZipArchive.isZip(prefix) {
                guard let bytes = source.randomAccess else { return false }
                let archive = try ZipArchive(bytes: bytes, name: path, identity: nil)
                return RecordingDialects.all.contains { $0.recognizes(archive: archive) }
            }
            return RecordingDialects.all.contains { $0.recognizes(prefix) }
        } catch {
            return false
        }
    }
}
