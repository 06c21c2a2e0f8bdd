#!/usr/bin/env bash
# A Slurm of the tests' own on loopback: `start DIR` starts munged with a key of its own, then
# slurmctld and slurmd (one node, this machine's CPUs, $KWB_SLURM_GPUS GPUs as a generic
# resource where set) on free ports, with every file in DIR; it writes DIR/env, which sets
# SLURM_CONF for the clients (sbatch, squeue, scontrol, scancel); $KWB_SLURM_PLUGINDIR names the
# plugins' folder where Slurm is not installed in its usual place. `stop DIR` ends those daemons
# and only them. Exit 77 where Slurm or munge is missing or this is not root (slurmd runs jobs as
# their users).
set -euo pipefail
action=$1
dir=$(cd "$2" && pwd)
# The daemons run in the foreground of a background job each: their pids are the ones recorded.
stop_daemons() {
  for daemon in slurmd slurmctld munged; do
    [ -f "$dir/$daemon.started" ] && kill "$(cat "$dir/$daemon.started")" 2> /dev/null || true
  done
  sleep 1
  for daemon in slurmd slurmctld munged; do
    [ -f "$dir/$daemon.started" ] && kill -9 "$(cat "$dir/$daemon.started")" 2> /dev/null || true
    rm -f "$dir/$daemon.started"
  done
}
if [ "$action" = stop ]; then
  stop_daemons
  exit 0
fi
for program in munged slurmctld slurmd sbatch; do
  if ! command -v "$program" > /dev/null && [ ! -x "/usr/sbin/$program" ]; then
    echo "$program not found (slurmctld, slurmd, slurm-client and munge are among scripts/install-deps.sh's packages)"
    exit 77
  fi
done
if [ "$(id -u)" -ne 0 ]; then
  echo "slurmd needs root to run jobs as their users"
  exit 77
fi
export PATH=$PATH:/usr/sbin
mkdir -p "$dir/state" "$dir/spool"
head -c 1024 /dev/urandom > "$dir/munge.key"
chmod 600 "$dir/munge.key"
munged --foreground --key-file="$dir/munge.key" --socket="$dir/munge.sock" \
  --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munged.seed" \
  --force > /dev/null 2>&1 &
echo $! > "$dir/munged.started"
for attempt in $(seq 1 50); do
  [ -S "$dir/munge.sock" ] && break
  sleep 0.1
done
gpus=${KWB_SLURM_GPUS:-0}
node=kwbnode
free_port() {
  while true; do
    local port=$((20000 + RANDOM % 20000))
    if ! (: < /dev/tcp/127.0.0.1/$port) 2> /dev/null; then
      echo $port
      return
    fi
  done
}
ctld_port=$(free_port)
slurmd_port=$(free_port)
{
  echo "ClusterName=kwbtest"
  echo "SlurmctldHost=$(hostname -s)(127.0.0.1)"
  echo "MailProg=/bin/true"
  echo "SlurmctldPort=$ctld_port"
  echo "SlurmdPort=$slurmd_port"
  echo "AuthType=auth/munge"
  echo "AuthInfo=socket=$dir/munge.sock"
  echo "CredType=cred/munge"
  echo "SlurmUser=root"
  echo "SlurmdUser=root"
  echo "StateSaveLocation=$dir/state"
  echo "SlurmdSpoolDir=$dir/spool"
  echo "SlurmctldPidFile=$dir/slurmctld.pid"
  echo "SlurmdPidFile=$dir/slurmd.pid"
  echo "SlurmctldLogFile=$dir/slurmctld.log"
  echo "SlurmdLogFile=$dir/slurmd.log"
  echo "ProctrackType=proctrack/linuxproc"
  echo "TaskPlugin=task/none"
  echo "SelectType=select/cons_tres"
  echo "SelectTypeParameters=CR_Core"
  echo "ReturnToService=2"
  echo "MpiDefault=none"
  echo "JobAcctGatherType=jobacct_gather/none"
  echo "AccountingStorageType=accounting_storage/none"
  # Where Slurm is unpacked away from its usual place.
  [ -z "${KWB_SLURM_PLUGINDIR:-}" ] || echo "PluginDir=$KWB_SLURM_PLUGINDIR"
  echo "MinJobAge=600"
  [ "$gpus" -gt 0 ] && echo "GresTypes=gpu"
  echo "NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=1000 State=UNKNOWN$([ "$gpus" -gt 0 ] && echo " Gres=gpu:$gpus")"
  echo "PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP"
} > "$dir/slurm.conf"
# No systemd to ask for a scope (containers): slurmd makes its cgroups itself.
echo "IgnoreSystemd=yes" > "$dir/cgroup.conf"
if [ "$gpus" -gt 0 ]; then
  echo "NodeName=$node Name=gpu File=/dev/nvidia[0-$((gpus - 1))]" > "$dir/gres.conf"
fi
export SLURM_CONF=$dir/slurm.conf
echo "export SLURM_CONF=$dir/slurm.conf" > "$dir/env"
slurmctld -D -c -f "$dir/slurm.conf" > /dev/null 2>&1 &
echo $! > "$dir/slurmctld.started"
slurmd -D -c -N "$node" -f "$dir/slurm.conf" > /dev/null 2>&1 &
echo $! > "$dir/slurmd.started"
# Ready once the node takes jobs.
for attempt in $(seq 1 40); do
  if timeout 5 sinfo -h -N -o "%t" 2> /dev/null | grep -qE "^(idle|mix|alloc)"; then
    exit 0
  fi
  sleep 0.5
done
echo "the node did not come up:"
timeout 5 sinfo -N 2>&1 || true
tail -n 5 "$dir/slurmctld.log" "$dir/slurmd.log" 2>&1 || true
stop_daemons
exit 1
