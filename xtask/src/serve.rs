//! A small static file server for `www/`, enough for the page and its wasm.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};

/// The MIME type for a file name; `.wasm` must be `application/wasm` for
/// streaming compilation.
pub fn mime_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "wasm" => "application/wasm",
        "png" => "image/png",
        "svg" => "image/svg+xml",
        "gltf" => "model/gltf+json",
        "txt" | "md" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// Maps a request path onto a file under `dir`, refusing `..`.
fn resolve(dir: &Path, request_path: &str) -> Option<PathBuf> {
    let path = request_path.split(['?', '#']).next().unwrap_or("/");
    let mut resolved = dir.to_path_buf();
    for component in Path::new(path.trim_start_matches('/')).components() {
        match component {
            Component::Normal(part) => resolved.push(part),
            Component::CurDir => {}
            _ => return None,
        }
    }
    if resolved.is_dir() {
        resolved.push("index.html");
    }
    Some(resolved)
}

/// The precompressed copy of `path` to send for a request that accepts
/// `accepted` (its Accept-Encoding): `path.br` for brotli, else `path.gz`
/// for gzip, where the file exists; with the Content-Encoding to name.
fn precompressed(path: &Path, accepted: &str) -> Option<(PathBuf, &'static str)> {
    let accepts = |coding: &str| {
        accepted.split(',').any(|part| {
            let mut fields = part.split(';');
            let name = fields.next().unwrap_or("").trim();
            // "br;q=0" refuses it.
            let refused = fields.any(|f| f.trim().replace(' ', "") == "q=0");
            name.eq_ignore_ascii_case(coding) && !refused
        })
    };
    [("br", "br"), ("gzip", "gz")]
        .into_iter()
        .filter(|(coding, _)| accepts(coding))
        .map(|(coding, extension)| {
            let mut name = path.as_os_str().to_owned();
            name.push(".");
            name.push(extension);
            (PathBuf::from(name), coding)
        })
        .find(|(file, _)| file.is_file())
}

fn respond(mut stream: TcpStream, dir: &Path) -> std::io::Result<()> {
    let mut request_line = String::new();
    let mut reader = BufReader::new(stream.try_clone()?);
    reader.read_line(&mut request_line)?;
    // Of the headers only Accept-Encoding matters here.
    let mut accepted = String::new();
    let mut header = String::new();
    while reader.read_line(&mut header)? > 2 {
        if let Some((name, value)) = header.split_once(':') {
            if name.trim().eq_ignore_ascii_case("accept-encoding") {
                accepted = value.trim().to_owned();
            }
        }
        header.clear();
    }
    let mut parts = request_line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
    let file = resolve(dir, target).filter(|_| method == "GET" || method == "HEAD");
    let found = file.and_then(|path| {
        let (sent, coding) = match precompressed(&path, &accepted) {
            Some((copy, coding)) => (copy, Some(coding)),
            None => (path.clone(), None),
        };
        std::fs::read(&sent).ok().map(|body| (path, coding, body))
    });
    match found {
        Some((path, coding, body)) => {
            let encoding = coding.map_or(String::new(), |c| {
                format!("Content-Encoding: {c}\r\nVary: Accept-Encoding\r\n")
            });
            write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: {}\r\n{encoding}Content-Length: {}\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n",
                mime_type(&path),
                body.len()
            )?;
            if method == "GET" {
                stream.write_all(&body)?;
            }
        }
        None => {
            let body = format!("not found: {target}\n");
            write!(
                stream,
                "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            )?;
        }
    }
    stream.flush()
}

/// Serves `dir` on `127.0.0.1:port` until interrupted.
pub fn serve(dir: &Path, port: u16) -> Result<(), String> {
    let listener =
        TcpListener::bind(("127.0.0.1", port)).map_err(|e| format!("127.0.0.1:{port}: {e}"))?;
    println!("Skinlab is served on http://127.0.0.1:{port}/ (Ctrl+C stops)");
    serve_on(listener, dir);
    Ok(())
}

/// Serves `dir` on `listener` until the process ends (the benchmark runs
/// it in a thread on a free port).
pub fn serve_on(listener: TcpListener, dir: &Path) {
    for stream in listener.incoming().flatten() {
        let dir = dir.to_path_buf();
        std::thread::spawn(move || {
            if let Err(error) = respond(stream, &dir) {
                eprintln!("serve: {error}");
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_inside_the_folder() {
        let dir = Path::new("/srv/www");
        assert_eq!(
            resolve(dir, "/pkg/skinlab.js?v=1"),
            Some(PathBuf::from("/srv/www/pkg/skinlab.js"))
        );
        assert_eq!(resolve(dir, "/../etc/passwd"), None);
        assert_eq!(mime_type(Path::new("a.wasm")), "application/wasm");
    }

    #[test]
    fn a_precompressed_copy_is_sent_where_it_is_accepted() {
        let dir = std::env::temp_dir().join(format!("skinlab-serve-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let page = dir.join("app.js");
        for name in ["app.js", "app.js.br", "app.js.gz"] {
            std::fs::write(dir.join(name), name).unwrap();
        }
        let chosen = |accepted: &str| precompressed(&page, accepted).map(|(_, coding)| coding);
        assert_eq!(chosen("gzip, deflate, br, zstd"), Some("br"));
        assert_eq!(chosen("gzip"), Some("gzip"));
        assert_eq!(chosen("br;q=0, gzip"), Some("gzip"));
        assert_eq!(chosen(""), None);
        std::fs::remove_file(dir.join("app.js.br")).unwrap();
        assert_eq!(chosen("br, gzip"), Some("gzip"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
