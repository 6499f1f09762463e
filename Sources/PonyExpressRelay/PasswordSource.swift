import Foundation

/// Where a relay URL without a password finds one, as libpq does: `PGPASSWORD`, then the password file.
enum PasswordSource {
    static func password(
        host: String, port: Int, database: String, username: String, environment: [String: String]
    ) -> String? {
        if let password = environment["PGPASSWORD"], !password.isEmpty { return password }
        let path: String
        if let file = environment["PGPASSFILE"], !file.isEmpty {
            path = file
        } else if let home = environment["HOME"], !home.isEmpty {
            path = home + "/.pgpass"
        } else {
            return nil
        }
        guard let text = readPrivateFile(path) else { return nil }
        let wanted = [host, String(port), database, username]
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let fields = split(line)
            guard fields.count == 5 else { continue }
            if zip(fields, wanted).allSatisfy({ $0 == "*" || $0 == $1 }) { return fields[4] }
        }
        return nil
    }

    /// The file's text, when it is a regular file of at most 1 MiB that neither group nor others can read or
    /// write (libpq ignores any other, and so does this).
    private static func readPrivateFile(_ path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_mode & 0o077 == 0,
            status.st_size <= 1 << 20,
            let data = FileManager.default.contents(atPath: path)
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// A password file line's fields: split at `:`, with `\:` and `\\` standing for themselves.
    private static func split(_ line: Substring) -> [String] {
        var fields: [String] = []
        var field = ""
        var escaped = false
        for character in line {
            if escaped {
                field.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":" {
                fields.append(field)
                field = ""
            } else {
                field.append(character)
            }
        }
        fields.append(field)
        return fields
    }
}
