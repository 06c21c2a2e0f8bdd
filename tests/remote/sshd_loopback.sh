#!/usr/bin/env bash
# An sshd of the tests' own on loopback: `start DIR` generates host and user keys in DIR, starts
# sshd on a free port for this user alone and writes DIR/ssh_config with a host "kwbtest" that
# reaches it; `stop DIR` ends that sshd (and only it). Exit 77 where there is no sshd.
set -euo pipefail
action=$1
dir=$2
if [ "$action" = stop ]; then
  [ -f "$dir/sshd.pid" ] && kill "$(cat "$dir/sshd.pid")" 2> /dev/null || true
  exit 0
fi
sshd=$(command -v sshd || echo /usr/sbin/sshd)
if [ ! -x "$sshd" ]; then
  echo "sshd not found (openssh-server is among scripts/install-deps.sh's packages)"
  exit 77
fi
user=$(id -un)
ssh-keygen -q -t ed25519 -N '' -f "$dir/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$dir/user_key"
cp "$dir/user_key.pub" "$dir/authorized_keys"
# sshd checks for its privilege separation directory even when it will not use it.
[ "$(id -u)" -ne 0 ] || mkdir -p /run/sshd
for attempt in $(seq 1 20); do
  port=$((20000 + RANDOM % 20000))
  cat > "$dir/sshd_config" <<CONFIG
Port $port
ListenAddress 127.0.0.1
HostKey $dir/host_key
AuthorizedKeysFile $dir/authorized_keys
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PermitRootLogin prohibit-password
AllowUsers $user
PidFile $dir/sshd.pid
CONFIG
  # The remote kwb finds its libraries where the tests' own do.
  [ -z "${LD_LIBRARY_PATH:-}" ] || echo "SetEnv LD_LIBRARY_PATH=$LD_LIBRARY_PATH" >> "$dir/sshd_config"
  cat > "$dir/ssh_config" <<CONFIG
Host kwbtest
  HostName 127.0.0.1
  Port $port
  User $user
  IdentityFile $dir/user_key
  IdentitiesOnly yes
  BatchMode yes
  StrictHostKeyChecking no
  UserKnownHostsFile $dir/known_hosts
  LogLevel ERROR
CONFIG
  "$sshd" -f "$dir/sshd_config" -E "$dir/sshd.log" 2>> "$dir/sshd.log" || continue
  for wait in $(seq 1 50); do
    if ssh -F "$dir/ssh_config" kwbtest true 2> /dev/null; then
      echo "$port"
      exit 0
    fi
    sleep 0.1
  done
  [ -f "$dir/sshd.pid" ] && kill "$(cat "$dir/sshd.pid")" 2> /dev/null || true
done
echo "no sshd could be started:"
cat "$dir/sshd.log"
exit 1
