#!/bin/sh
# Prints a container's state, mounts and environment.
docker inspect --format '{{json .State}} {{json .Mounts}} {{json .Config.Env}}' "$1"
