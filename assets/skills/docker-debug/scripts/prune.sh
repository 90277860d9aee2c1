# Removes stopped containers and dangling images (no shebang, no run bit: `probe --scripts` flags it).
docker container prune -f && docker image prune -f
