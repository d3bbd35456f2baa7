#!/usr/bin/env python3
"""Builds the Dockerfile's runtime stage without a Docker engine, as a root filesystem.

A bookworm minbase tree (debootstrap; what debian:bookworm-slim is made from) is made once and
cached; each run copies it and replays the runtime stage's instructions on the copy: RUN in a
chroot, COPY (the build stage's binary is the rehearsal's static build; the context is this
repository), ENV, WORKDIR, USER, ENTRYPOINT, CMD, HEALTHCHECK. It prints the resulting
configuration as JSON for Tests/ops/run.sh, which runs it in new PID and mount namespaces.

    rootfs.py --cache DIR --rootfs DIR --binary PATH [--dockerfile Dockerfile] [--context .]
Needs root, debootstrap and Debian's package mirror.
"""

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys


def instructions(dockerfile):
    """(keyword, argument) per instruction, continuation lines joined, comments dropped."""
    logical, current = [], ""
    for raw in open(dockerfile, encoding="utf-8"):
        line = raw.rstrip("\n")
        if not current and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.lstrip().startswith("#"):
            continue  # a comment inside a continued instruction
        if line.endswith("\\"):
            current += line[:-1] + " "
            continue
        current += line
        logical.append(current.strip())
        current = ""
    result = []
    for line in logical:
        keyword, _, argument = line.partition(" ")
        result.append((keyword.upper(), argument.strip()))
    return result


def runtime_stage(dockerfile):
    stages, stage = [], None
    for keyword, argument in instructions(dockerfile):
        if keyword == "FROM":
            stage = {"from": argument, "steps": []}
            stages.append(stage)
        elif stage is not None:
            stage["steps"].append((keyword, argument))
    return stages[-1]


def split_flags(argument):
    words = shlex.split(argument)
    flags = {}
    while words and words[0].startswith("--"):
        name, _, value = words.pop(0)[2:].partition("=")
        flags[name] = value
    return flags, words


def exec_form(argument):
    argument = argument.strip()
    if argument.startswith("["):
        return json.loads(argument)
    return ["/bin/sh", "-c", argument]


def run(command, **kwargs):
    print("    $ " + " ".join(shlex.quote(word) for word in command)[:160], file=sys.stderr, flush=True)
    subprocess.run(command, check=True, **kwargs)


def resolve_user(rootfs, user):
    """USER name[:group] or uid[:gid], looked up in the image's own passwd and group files."""
    name, _, group = user.partition(":")
    passwd = [line.split(":") for line in open(os.path.join(rootfs, "etc/passwd"), encoding="utf-8")]
    groups = [line.split(":") for line in open(os.path.join(rootfs, "etc/group"), encoding="utf-8")]
    entry = next((e for e in passwd if e[0] == name or e[2] == name), None)
    uid = int(name) if name.isdigit() else int(entry[2])
    if group:
        gid = int(group) if group.isdigit() else int(next(g for g in groups if g[0] == group)[2])
    else:
        gid = int(entry[3]) if entry else uid
    return uid, gid


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cache", required=True, help="where the debootstrapped base tree is kept")
    parser.add_argument("--rootfs", required=True, help="the tree to build (replaced)")
    parser.add_argument("--binary", required=True, help="the build stage's output (the static build)")
    parser.add_argument("--build-output", default="/staging/cellar", help="its path in the build stage")
    parser.add_argument("--dockerfile", default="Dockerfile")
    parser.add_argument("--context", default=".")
    parser.add_argument("--suite", default="bookworm")
    args = parser.parse_args()

    stage = runtime_stage(args.dockerfile)
    if stage["from"] != f"debian:{args.suite}-slim":
        sys.exit(f"the runtime stage is FROM {stage['from']}, not debian:{args.suite}-slim")

    base = os.path.join(args.cache, f"{args.suite}-minbase")
    if not os.path.exists(os.path.join(base, ".complete")):
        shutil.rmtree(base, ignore_errors=True)
        os.makedirs(args.cache, exist_ok=True)
        run(["debootstrap", "--variant=minbase", args.suite, base], stdout=subprocess.DEVNULL)
        open(os.path.join(base, ".complete"), "w").close()
    shutil.rmtree(args.rootfs, ignore_errors=True)
    run(["cp", "-a", base, args.rootfs])
    os.remove(os.path.join(args.rootfs, ".complete"))
    shutil.copy("/etc/resolv.conf", os.path.join(args.rootfs, "etc/resolv.conf"))

    config = {"env": {}, "workdir": "/", "user": "0", "entrypoint": [], "cmd": [], "healthcheck": None,
              "expose": [], "stopsignal": "SIGTERM", "steps": []}
    for keyword, argument in stage["steps"]:
        config["steps"].append(f"{keyword} {argument}"[:120])
        if keyword == "RUN":
            environment = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
                           "DEBIAN_FRONTEND": "noninteractive", **config["env"]}
            command = exec_form(argument)
            run(["chroot", args.rootfs, "/usr/bin/env", "-i"] + [f"{k}={v}" for k, v in environment.items()]
                + ["/bin/sh", "-c", f"cd {shlex.quote(config['workdir'])} && exec \"$@\"", "sh"] + command,
                stdout=subprocess.DEVNULL)
        elif keyword == "COPY":
            flags, words = split_flags(argument)
            sources, destination = words[:-1], words[-1]
            if not destination.startswith("/"):
                destination = os.path.join(config["workdir"], destination)
            for source in sources:
                mode = None
                if "from" in flags:
                    if source != args.build_output:
                        sys.exit(f"COPY --from={flags['from']} {source}: only {args.build_output} is rehearsed")
                    origin = args.binary
                    mode = 0o555  # what the build stage's `install -m 0555` leaves
                else:
                    origin = os.path.join(args.context, source)
                target = args.rootfs + destination
                if destination.endswith("/") or os.path.isdir(target):
                    target = os.path.join(target, os.path.basename(source.rstrip("/")))
                os.makedirs(os.path.dirname(target), exist_ok=True)
                if os.path.isdir(origin):
                    shutil.rmtree(target, ignore_errors=True)
                    shutil.copytree(origin, target, symlinks=True)
                else:
                    shutil.copy2(origin, target)
                    if mode is not None:
                        os.chmod(target, mode)
                owner = flags.get("chown")
                if owner:
                    run(["chroot", args.rootfs, "chown", "-R", owner, target[len(args.rootfs):]])
                if "chmod" in flags:
                    run(["chmod", "-R", flags["chmod"], target])
        elif keyword == "ENV":
            for word in shlex.split(argument):
                name, _, value = word.partition("=")
                config["env"][name] = value
        elif keyword == "WORKDIR":
            config["workdir"] = argument
            os.makedirs(args.rootfs + argument, exist_ok=True)
        elif keyword == "USER":
            config["user"] = argument
        elif keyword == "EXPOSE":
            config["expose"] += argument.split()
        elif keyword == "STOPSIGNAL":
            config["stopsignal"] = argument
        elif keyword == "ENTRYPOINT":
            config["entrypoint"] = exec_form(argument)
        elif keyword == "CMD":
            config["cmd"] = exec_form(argument)
        elif keyword == "HEALTHCHECK":
            flags, _, command = argument.partition("CMD ")
            config["healthcheck"] = {"options": flags.split(), "command": exec_form(command)}
        else:
            sys.exit(f"{keyword} is not rehearsed; teach Tests/ops/rootfs.py")
    os.remove(os.path.join(args.rootfs, "etc/resolv.conf"))
    config["uid"], config["gid"] = resolve_user(args.rootfs, config["user"])
    json.dump(config, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
