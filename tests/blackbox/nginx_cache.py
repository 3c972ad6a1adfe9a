"""A real nginx serving a build cache over WebDAV PUT, for the tests of the
HTTP cache store. Started in the foreground as the current user on a free
loopback port with everything (config, root, logs, pid, temp files) in a
temporary directory, and stopped by stop(). The config is the one the
manual's "An HTTP cache with nginx" section gives."""

import os
import shutil
import socket
import subprocess
import time

NGINX_CONF = """\
{user}worker_processes 1;
error_log {dir}/error.log;
pid {dir}/nginx.pid;
daemon off;
events {{ worker_connections 64; }}
http {{
  # $connection: the tests see requests share kept-alive connections.
  log_format cache '$connection $request_method $uri $status';
  access_log {dir}/access.log cache;
  client_body_temp_path {dir}/tmp;
  proxy_temp_path {dir}/tmp;
  fastcgi_temp_path {dir}/tmp;
  uwsgi_temp_path {dir}/tmp;
  scgi_temp_path {dir}/tmp;
  server {{
    listen 127.0.0.1:{port};
    location /cache/ {{
      root {dir}/www;
      dav_methods PUT;
      create_full_put_path on;
      dav_access user:rw group:r all:r;
      client_max_body_size 1g;
    }}
  }}
}}
"""


def find_nginx():
    """The nginx binary, or None (Debian installs it in /usr/sbin)."""
    return shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Nginx:
    def __init__(self, root):
        self.dir = root
        os.makedirs(os.path.join(root, "www", "cache"), exist_ok=True)
        os.makedirs(os.path.join(root, "tmp"), exist_ok=True)
        self.port = free_port()
        self.url = "http://127.0.0.1:%d/cache" % self.port
        self.conf = os.path.join(root, "nginx.conf")
        with open(self.conf, "w") as f:
            # As root nginx's workers would become "nobody"; keep them ours.
            user = "user root;\n" if os.geteuid() == 0 else ""
            f.write(NGINX_CONF.format(dir=root, port=self.port, user=user))
        self.proc = None

    def start(self):
        # -e: the error log before the config is read (it defaults to /var/log).
        self.proc = subprocess.Popen([find_nginx(), "-p", self.dir, "-c", self.conf, "-e",
                                      os.path.join(self.dir, "error.log")],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.time() + 10
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("nginx exited: " + self.proc.stderr.read().decode())
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("nginx did not start listening")

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()  # nginx's fast shutdown (SIGTERM) ends its workers too
            self.proc.wait(10)
        if self.proc:
            self.proc.stderr.close()
        self.proc = None

    def file(self, kind, name):
        """Where nginx keeps PREFIX/kind/name."""
        return os.path.join(self.dir, "www", "cache", kind, name)

    def access_log(self):
        with open(os.path.join(self.dir, "access.log")) as f:
            return f.read()
