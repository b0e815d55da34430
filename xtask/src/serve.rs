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

fn respond(mut stream: TcpStream, dir: &Path) -> std::io::Result<()> {
    let mut request_line = String::new();
    let mut reader = BufReader::new(stream.try_clone()?);
    reader.read_line(&mut request_line)?;
    // Drain the headers; the server needs none of them.
    let mut header = String::new();
    while reader.read_line(&mut header)? > 2 {
        header.clear();
    }
    let mut parts = request_line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
    let file = resolve(dir, target).filter(|_| method == "GET" || method == "HEAD");
    match file.and_then(|path| std::fs::read(&path).ok().map(|body| (path, body))) {
        Some((path, body)) => {
            write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n",
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
    for stream in listener.incoming().flatten() {
        let dir = dir.to_path_buf();
        std::thread::spawn(move || {
            if let Err(error) = respond(stream, &dir) {
                eprintln!("serve: {error}");
            }
        });
    }
    Ok(())
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
}
