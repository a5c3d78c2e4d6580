/* sbx_spec_parse and sbx_spec_load: every error message, then the fields
   of successful parses.  JSON in the tables uses ' for " (converted before
   parsing) so the rows stay readable.  */
#include "common/cleanup.h"
#include "spec/spec.h"
#include "tests/unit/tap.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#define BASE "'ociVersion':'1.2.0','root':{'path':'rootfs'}"
#define DOC(x) "{" BASE "," x "}"
#define PROC(x) DOC ("'process':{'args':['sh'],'cwd':'/'," x "}")
#define USER(x) PROC ("'user':{'uid':0,'gid':0," x "}")
#define RLIMIT(x) PROC ("'rlimits':[{'type':'RLIMIT_NOFILE'," x "}]")
#define LINUX(x) DOC ("'linux':{" x "}")
#define SECCOMP(x) LINUX ("'seccomp':{'defaultAction':'SCMP_ACT_ALLOW'," x "}")
#define RULE(x) SECCOMP ("'syscalls':[{'names':['read'],'action':'A'," x "}]")
#define ARG(x) RULE ("'args':[{'index':0,'value':1,'op':'EQ'," x "}]")
#define HOOK(x) DOC ("'hooks':{'poststop':[{'path':'/bin/true'," x "}]}")
#define SBX(x) DOC ("'sbx':{" x "}")

struct error_case
{
  const char *json;
  const char *want;
};

static const struct error_case error_cases[] = {
  /* the text */
  { "{", "invalid JSON: parse error: premature EOF at line 1, column 2" },
  { "{'a':1}}",
    "invalid JSON: parse error: trailing garbage at line 1, column 8" },
  { "{\n 'a': tru }", "invalid JSON: lexical error: invalid string in json "
                      "text. at line 2, column 9" },
  { "{'a':'\\u0000'}", "invalid JSON: \\u0000 in a string is not supported at "
                       "line 1, column 13" },
  { "[]", "expected a JSON object at the top level" },
  { "'x'", "expected a JSON object at the top level" },
  /* top level */
  { "{}", "ociVersion: required" },
  { "{'ociVersion':null}", "ociVersion: required" },
  { "{'ociVersion':1}", "ociVersion: expected a string" },
  { "{'ociVersion':'1','ociVersion':'2'}", "ociVersion: duplicate key" },
  { "{'ociVersion':'1'}", "root: required" },
  { "{'ociVersion':'1','root':'/'}", "root: expected an object" },
  { "{'ociVersion':'1','root':{}}", "root.path: required" },
  { "{'ociVersion':'1','root':{'path':true}}",
    "root.path: expected a string" },
  { "{'ociVersion':'1','root':{'path':''}}",
    "root.path: expected a non-empty string" },
  { "{'ociVersion':'1','root':{'path':'/','readonly':1}}",
    "root.readonly: expected a boolean" },
  { DOC ("'hostname':[]"), "hostname: expected a string" },
  { DOC ("'annotations':[]"), "annotations: expected an object" },
  { DOC ("'annotations':{'org.x':1}"),
    "annotations[\"org.x\"]: expected a string" },
  { DOC ("'annotations':{'b':'1','a':'2','b':'3'}"),
    "annotations.b: duplicate key" },
  /* mounts */
  { DOC ("'mounts':{}"), "mounts: expected an array" },
  { DOC ("'mounts':['/x']"), "mounts[0]: expected an object" },
  { DOC ("'mounts':[{'destination':'/a'},{}]"),
    "mounts[1].destination: required" },
  { DOC ("'mounts':[{'destination':'a'}]"),
    "mounts[0].destination: expected an absolute path" },
  { DOC ("'mounts':[{'destination':'/a/../b'}]"),
    "mounts[0].destination: \"..\" is not allowed in a destination" },
  { DOC ("'mounts':[{'destination':7}]"),
    "mounts[0].destination: expected a string" },
  { DOC ("'mounts':[{'destination':'/a','type':7}]"),
    "mounts[0].type: expected a string" },
  { DOC ("'mounts':[{'destination':'/a','options':'ro'}]"),
    "mounts[0].options: expected an array of strings" },
  { DOC ("'mounts':[{'destination':'/a','options':['ro',1]}]"),
    "mounts[0].options[1]: expected a string" },
  { DOC ("'mounts':[{'destination':'/a','type':'bind'}]"),
    "mounts[0].source: required for a bind mount" },
  { DOC ("'mounts':[{'destination':'/a','options':['rbind'],'source':''}]"),
    "mounts[0].source: expected a non-empty string" },
  { DOC ("'mounts':[{'destination':'/a','type':'tmpfs','source':1}]"),
    "mounts[0].source: expected a string" },
  /* hooks */
  { DOC ("'hooks':[]"), "hooks: expected an object" },
  { DOC ("'hooks':{'prestart':{}}"), "hooks.prestart: expected an array" },
  { DOC ("'hooks':{'createRuntime':[1]}"),
    "hooks.createRuntime[0]: expected an object" },
  { DOC ("'hooks':{'createContainer':[{}]}"),
    "hooks.createContainer[0].path: required" },
  { DOC ("'hooks':{'startContainer':[{'path':'true'}]}"),
    "hooks.startContainer[0].path: expected an absolute path" },
  { DOC ("'hooks':{'poststart':[{'path':'/t','args':[1]}]}"),
    "hooks.poststart[0].args[0]: expected a string" },
  { HOOK ("'env':'A=1'"),
    "hooks.poststop[0].env: expected an array of strings" },
  { HOOK ("'timeout':0"),
    "hooks.poststop[0].timeout: out of range (expected 1 to 2147483647)" },
  { HOOK ("'timeout':2147483648"),
    "hooks.poststop[0].timeout: out of range (expected 1 to 2147483647)" },
  { HOOK ("'timeout':1.5"), "hooks.poststop[0].timeout: expected an integer" },
  /* process */
  { DOC ("'process':[]"), "process: expected an object" },
  { DOC ("'process':{'cwd':'/'}"), "process.args: required" },
  { DOC ("'process':{'args':[],'cwd':'/'}"),
    "process.args: expected a non-empty array of strings" },
  { DOC ("'process':{'args':'sh','cwd':'/'}"),
    "process.args: expected a non-empty array of strings" },
  { DOC ("'process':{'args':['sh',null],'cwd':'/'}"),
    "process.args[1]: expected a string" },
  { DOC ("'process':{'args':['sh']}"), "process.cwd: required" },
  { DOC ("'process':{'args':['sh'],'cwd':'tmp'}"),
    "process.cwd: expected an absolute path" },
  { PROC ("'env':['A=1','B']"), "process.env[1]: expected \"NAME=value\"" },
  { PROC ("'env':['=x']"), "process.env[0]: expected \"NAME=value\"" },
  { PROC ("'terminal':'yes'"), "process.terminal: expected a boolean" },
  { PROC ("'user':0"), "process.user: expected an object" },
  { PROC ("'user':{'gid':0}"), "process.user.uid: required" },
  { PROC ("'user':{'uid':0}"), "process.user.gid: required" },
  { PROC ("'user':{'uid':-1,'gid':0}"),
    "process.user.uid: expected an unsigned integer" },
  { PROC ("'user':{'uid':1.5,'gid':0}"),
    "process.user.uid: expected an unsigned integer" },
  { PROC ("'user':{'uid':1e3,'gid':0}"),
    "process.user.uid: expected an unsigned integer" },
  { PROC ("'user':{'uid':'0','gid':0}"),
    "process.user.uid: expected an unsigned integer" },
  { PROC ("'user':{'uid':4294967296,'gid':0}"),
    "process.user.uid: out of range (expected 0 to 4294967295)" },
  { USER ("'umask':4096"),
    "process.user.umask: out of range (expected 0 to 4095)" },
  { USER ("'additionalGids':5"),
    "process.user.additionalGids: expected an array" },
  { USER ("'additionalGids':[5,-5]"),
    "process.user.additionalGids[1]: expected an unsigned integer" },
  { PROC ("'capabilities':[]"), "process.capabilities: expected an object" },
  { PROC ("'capabilities':{'bounding':[],'ambient':'CAP_KILL'}"),
    "process.capabilities.ambient: expected an array of strings" },
  { PROC ("'rlimits':{}"), "process.rlimits: expected an array" },
  { PROC ("'rlimits':[{'hard':1,'soft':1}]"),
    "process.rlimits[0].type: required" },
  { PROC ("'rlimits':[{'type':'RLIMIT_FOO','hard':1,'soft':1}]"),
    "process.rlimits[0].type: unknown value \"RLIMIT_FOO\" (expected one of: "
    "RLIMIT_CPU, RLIMIT_FSIZE, RLIMIT_DATA, RLIMIT_STACK, RLIMIT_CORE, "
    "RLIMIT_RSS, RLIMIT_NPROC, RLIMIT_NOFILE, RLIMIT_MEMLOCK, RLIMIT_AS, "
    "RLIMIT_LOCKS, RLIMIT_SIGPENDING, RLIMIT_MSGQUEUE, RLIMIT_NICE, "
    "RLIMIT_RTPRIO, RLIMIT_RTTIME)" },
  { PROC ("'rlimits':[{'type':'RLIMIT_NOFILE','hard':1,'soft':1},{'type':'"
          "RLIMIT_NOFILE','hard':1,'soft':1}]"),
    "process.rlimits[1].type: duplicate \"RLIMIT_NOFILE\"" },
  { RLIMIT ("'soft':1"), "process.rlimits[0].hard: required" },
  { RLIMIT ("'hard':1"), "process.rlimits[0].soft: required" },
  { RLIMIT ("'hard':-1,'soft':1"),
    "process.rlimits[0].hard: expected an unsigned integer" },
  { RLIMIT ("'hard':18446744073709551616,'soft':1"),
    "process.rlimits[0].hard: out of range (expected 0 to "
    "18446744073709551615)" },
  { RLIMIT ("'hard':-18446744073709551616,'soft':1"),
    "process.rlimits[0].hard: expected an unsigned integer" },
  { RLIMIT ("'hard':10,'soft':11"),
    "process.rlimits[0].soft: greater than hard" },
  { PROC ("'noNewPrivileges':'true'"),
    "process.noNewPrivileges: expected a boolean" },
  { PROC ("'oomScoreAdj':1001"),
    "process.oomScoreAdj: out of range (expected -1000 to 1000)" },
  { PROC ("'oomScoreAdj':-1001"),
    "process.oomScoreAdj: out of range (expected -1000 to 1000)" },
  { PROC ("'oomScoreAdj':0.5"), "process.oomScoreAdj: expected an integer" },
  { PROC ("'selinuxLabel':7"), "process.selinuxLabel: expected a string" },
  /* linux */
  { DOC ("'linux':1"), "linux: expected an object" },
  { LINUX ("'namespaces':{}"), "linux.namespaces: expected an array" },
  { LINUX ("'namespaces':[{'path':'/x'}]"),
    "linux.namespaces[0].type: required" },
  { LINUX ("'namespaces':[{'type':'net'}]"),
    "linux.namespaces[0].type: unknown value \"net\" (expected one of: pid, "
    "network, mount, ipc, uts, user, cgroup, time)" },
  { LINUX ("'namespaces':[{'type':'pid'},{'type':'mount'},{'type':'pid'}]"),
    "linux.namespaces[2].type: duplicate \"pid\"" },
  { LINUX ("'namespaces':[{'type':'pid','path':'proc/1/ns/pid'}]"),
    "linux.namespaces[0].path: expected an absolute path" },
  { LINUX ("'uidMappings':[{'hostID':0,'size':1}]"),
    "linux.uidMappings[0].containerID: required" },
  { LINUX ("'uidMappings':[{'containerID':0,'size':1}]"),
    "linux.uidMappings[0].hostID: required" },
  { LINUX ("'gidMappings':[{'containerID':0,'hostID':0,'size':-1}]"),
    "linux.gidMappings[0].size: expected an unsigned integer" },
  { LINUX ("'gidMappings':[{'containerID':0,'hostID':0,'size':0}]"),
    "linux.gidMappings[0].size: out of range (expected 1 to 4294967295)" },
  { LINUX ("'uidMappings':[{'containerID':4294967000,'hostID':0,"
           "'size':1000}]"),
    "linux.uidMappings[0]: containerID + size is past 4294967295, the end "
    "of the id range" },
  { LINUX ("'uidMappings':[{'containerID':0,'hostID':4294967295,'size':1}]"),
    "linux.uidMappings[0]: hostID + size is past 4294967295, the end of the "
    "id range" },
  { LINUX ("'uidMappings':[{'containerID':0,'hostID':100000,'size':65536},"
           "{'containerID':1000,'hostID':300000,'size':10}]"),
    "linux.uidMappings[1]: container ids 1000 to 1009 overlap those of "
    "linux.uidMappings[0]" },
  { LINUX ("'gidMappings':[{'containerID':0,'hostID':100000,'size':10},"
           "{'containerID':10,'hostID':100000,'size':1},"
           "{'containerID':20,'hostID':100009,'size':2}]"),
    "linux.gidMappings[1]: host ids 100000 to 100000 overlap those of "
    "linux.gidMappings[0]" },
  { LINUX ("'maskedPaths':['/proc/kcore','proc/keys']"),
    "linux.maskedPaths[1]: expected an absolute path" },
  /* A path with a control character: bubblewrap names a path it cannot
     use in its own message, which reaches the operator's terminal as it
     is (an escape sequence in a cwd that is not there did).  */
  { DOC ("'process':{'args':['sh'],'cwd':'/w/\\u001b[7m'}"),
    "process.cwd: a control character is not allowed in a path" },
  { DOC ("'mounts':[{'destination':'/a\\nb'}]"),
    "mounts[0].destination: a control character is not allowed in a path" },
  { DOC ("'mounts':[{'destination':'/a','type':'bind','source':'x\\u009b'}]"),
    "mounts[0].source: a control character is not allowed in a path" },
  { "{'ociVersion':'1','root':{'path':'r\\u007f'}}",
    "root.path: a control character is not allowed in a path" },
  { LINUX ("'maskedPaths':['/proc/kcore','/a\\tb']"),
    "linux.maskedPaths[1]: a control character is not allowed in a path" },
  { SBX ("'workspace':'/w\\u0007'"),
    "sbx.workspace: a control character is not allowed in a path" },
  { SBX ("'writableRoots':['/a','/b\\r']"),
    "sbx.writableRoots[1]: a control character is not allowed in a path" },
  { SBX ("'protectedPaths':['.git\\u001b']"),
    "sbx.protectedPaths[0]: a control character is not allowed in a path" },
  { LINUX ("'readonlyPaths':'/proc'"),
    "linux.readonlyPaths: expected an array of strings" },
  { LINUX ("'devices':{}"), "linux.devices: expected an array" },
  { LINUX ("'resources':{'devices':[{'allow':false,'major':4294967296}]}"),
    "linux.resources.devices[0].major: out of range (expected -1 to "
    "4294967295)" },
  { LINUX ("'devices':[{'type':'c','major':1,'minor':5}]"),
    "linux.devices[0].path: required" },
  { LINUX ("'resources':{'blockIO':{'weight':5}}"),
    "linux.resources.blockIO.weight: out of range (expected 10 to 1000)" },
  { LINUX ("'resources':{'blockIO':{'weightDevice':[{'minor':0,'weight':"
           "100}]}}"),
    "linux.resources.blockIO.weightDevice[0].major: required" },
  { LINUX ("'resources':{'blockIO':{'throttleWriteIOPSDevice':[{'major':8,"
           "'minor':0}]}}"),
    "linux.resources.blockIO.throttleWriteIOPSDevice[0].rate: required" },
  { LINUX ("'resources':{'blockIO':{'throttleReadBpsDevice':[{'major':-1,"
           "'minor':0,'rate':1}]}}"),
    "linux.resources.blockIO.throttleReadBpsDevice[0].major: expected an "
    "unsigned integer" },
  /* The kernel's block device numbers are 12 and 20 bits; v1's IOPS
     files take 32 bits.  */
  { LINUX ("'resources':{'blockIO':{'throttleReadBpsDevice':[{'major':4096,"
           "'minor':0,'rate':1}]}}"),
    "linux.resources.blockIO.throttleReadBpsDevice[0].major: out of range "
    "(expected 0 to 4095)" },
  { LINUX ("'resources':{'blockIO':{'weightDevice':[{'major':8,'minor':"
           "1048576,'weight':100}]}}"),
    "linux.resources.blockIO.weightDevice[0].minor: out of range (expected "
    "0 to 1048575)" },
  { LINUX ("'resources':{'blockIO':{'throttleReadIOPSDevice':[{'major':8,"
           "'minor':0,'rate':4294967296}]}}"),
    "linux.resources.blockIO.throttleReadIOPSDevice[0].rate: out of range "
    "(expected 0 to 4294967295)" },
  { LINUX ("'resources':{'hugepageLimits':[{'pageSize':'2M','limit':1}]}"),
    "linux.resources.hugepageLimits[0].pageSize: expected a page size such "
    "as \"2MB\" or \"1GB\"" },
  { LINUX ("'resources':{'hugepageLimits':[{'pageSize':'2MB/../x',"
           "'limit':1}]}"),
    "linux.resources.hugepageLimits[0].pageSize: expected a page size such "
    "as \"2MB\" or \"1GB\"" },
  { LINUX ("'resources':{'hugepageLimits':[{'pageSize':'2MB'}]}"),
    "linux.resources.hugepageLimits[0].limit: required" },
  { LINUX ("'resources':{'network':{'classID':-1}}"),
    "linux.resources.network.classID: expected an unsigned integer" },
  { LINUX ("'resources':{'network':{'priorities':[{'name':'eth0 1',"
           "'priority':1}]}}"),
    "linux.resources.network.priorities[0].name: expected an interface name "
    "(1 to 15 bytes, no white space, '/' or ':')" },
  { LINUX ("'resources':{'network':{'priorities':[{'name':"
           "'sixteen_bytes_xx','priority':1}]}}"),
    "linux.resources.network.priorities[0].name: expected an interface name "
    "(1 to 15 bytes, no white space, '/' or ':')" },
  { LINUX ("'resources':{'network':{'priorities':[{'name':'e\\u001b[2J',"
           "'priority':1}]}}"),
    "linux.resources.network.priorities[0].name: expected an interface name "
    "(1 to 15 bytes, no white space, '/' or ':')" },
  { LINUX ("'resources':{'network':{'priorities':[{'name':'lo'}]}}"),
    "linux.resources.network.priorities[0].priority: required" },
  { LINUX ("'devices':[{'path':'dev/zero','type':'c','major':1,'minor':5}]"),
    "linux.devices[0].path: expected an absolute path" },
  { LINUX ("'devices':[{'path':'/dev/../etc/z','type':'c','major':1,"
           "'minor':5}]"),
    "linux.devices[0].path: expected a path without \"..\" components" },
  { LINUX ("'devices':[{'path':'/dev/z','major':1,'minor':5}]"),
    "linux.devices[0].type: required" },
  { LINUX ("'devices':[{'path':'/dev/z','type':'a','major':1,'minor':5}]"),
    "linux.devices[0].type: unknown value \"a\" (expected one of: c, b, u, "
    "p)" },
  { LINUX ("'devices':[{'path':'/dev/z','type':'c','minor':5}]"),
    "linux.devices[0].major: required for a \"c\" device" },
  { LINUX ("'devices':[{'path':'/dev/z','type':'b','major':1}]"),
    "linux.devices[0].minor: required for a \"b\" device" },
  { LINUX ("'devices':[{'path':'/dev/z','type':'c','major':4096,"
           "'minor':5}]"),
    "linux.devices[0].major: out of range (expected 0 to 4095)" },
  { LINUX ("'devices':[{'path':'/dev/z','type':'c','major':1,"
           "'minor':1048576}]"),
    "linux.devices[0].minor: out of range (expected 0 to 1048575)" },
  { LINUX ("'devices':[{'path':'/dev/z','type':'c','major':1,'minor':5,"
           "'fileMode':65536}]"),
    "linux.devices[0].fileMode: out of range (expected 0 to 65535)" },
  { LINUX ("'devices':[{'path':'/dev/z','type':'c','major':1,'minor':5,"
           "'fileMode':25014}]"),
    "linux.devices[0].fileMode: its format bits (060000) are not those of "
    "a \"c\" node" },
  { LINUX ("'devices':[{'path':'/dev/z','type':'c','major':1,'minor':5,"
           "'uid':-1}]"),
    "linux.devices[0].uid: expected an unsigned integer" },
  { LINUX ("'devices':[{'path':'/dev/z','type':'p'},"
           "{'path':'/dev//z/','type':'p'}]"),
    "linux.devices[1].path: duplicate \"/dev/z\"" },
  { LINUX ("'mountLabel':[]"), "linux.mountLabel: expected a string" },
  { LINUX ("'seccomp':[]"), "linux.seccomp: expected an object" },
  { LINUX ("'seccomp':{}"), "linux.seccomp.defaultAction: required" },
  { SECCOMP ("'defaultErrnoRet':-1"),
    "linux.seccomp.defaultErrnoRet: expected an unsigned integer" },
  { SECCOMP ("'architectures':[1]"),
    "linux.seccomp.architectures[0]: expected a string" },
  { SECCOMP ("'flags':{}"),
    "linux.seccomp.flags: expected an array of strings" },
  { SECCOMP ("'syscalls':{}"), "linux.seccomp.syscalls: expected an array" },
  { SECCOMP ("'syscalls':[{'action':'A'}]"),
    "linux.seccomp.syscalls[0].names: required" },
  { SECCOMP ("'syscalls':[{'names':[],'action':'A'}]"),
    "linux.seccomp.syscalls[0].names: expected a non-empty array of strings" },
  { SECCOMP ("'syscalls':[{'names':['read']}]"),
    "linux.seccomp.syscalls[0].action: required" },
  { RULE ("'errnoRet':4294967296"), "linux.seccomp.syscalls[0].errnoRet: out "
                                    "of range (expected 0 to 4294967295)" },
  { RULE ("'args':[{'value':1,'op':'EQ'}]"),
    "linux.seccomp.syscalls[0].args[0].index: required" },
  { RULE ("'args':[{'index':6,'value':1,'op':'EQ'}]"),
    "linux.seccomp.syscalls[0].args[0].index: out of range (expected 0 to "
    "5)" },
  { RULE ("'args':[{'index':0,'op':'EQ'}]"),
    "linux.seccomp.syscalls[0].args[0].value: required" },
  { RULE ("'args':[{'index':0,'value':1.5,'op':'EQ'}]"),
    "linux.seccomp.syscalls[0].args[0].value: expected an unsigned integer" },
  { ARG ("'valueTwo':-1"), "linux.seccomp.syscalls[0].args[0].valueTwo: "
                           "expected an unsigned integer" },
  { RULE ("'args':[{'index':0,'value':1}]"),
    "linux.seccomp.syscalls[0].args[0].op: required" },
  { LINUX ("'resources':[]"), "linux.resources: expected an object" },
  { LINUX ("'resources':{'memory':1}"),
    "linux.resources.memory: expected an object" },
  { LINUX ("'resources':{'memory':{'limit':1.5}}"),
    "linux.resources.memory.limit: expected an integer" },
  { LINUX ("'resources':{'memory':{'limit':-5}}"),
    "linux.resources.memory.limit: -5 is negative: give -1 or leave it out "
    "for no limit" },
  { LINUX ("'resources':{'pids':{'limit':-2}}"),
    "linux.resources.pids.limit: -2 is negative: give -1 or leave it out "
    "for no limit" },
  { LINUX ("'resources':{'memory':{'limit':4096}}"),
    "linux.resources.memory.limit: 4096 bytes is too small for the sandbox "
    "to start (at least 4 MiB)" },
  { LINUX ("'resources':{'pids':{'limit':9223372036854775808}}"),
    "linux.resources.pids.limit: out of range (expected -9223372036854775808 "
    "to 9223372036854775807)" },
  { LINUX ("'resources':{'pids':{'limit':-9223372036854775809}}"),
    "linux.resources.pids.limit: out of range (expected -9223372036854775808 "
    "to 9223372036854775807)" },
  { LINUX ("'cgroupsPath':1"), "linux.cgroupsPath: expected a string" },
  { LINUX ("'sysctl':{'net.ipv4.ip_forward':1}"),
    "linux.sysctl[\"net.ipv4.ip_forward\"]: expected a string" },
  { LINUX ("'rootfsPropagation':false"),
    "linux.rootfsPropagation: expected a string" },
  /* sbx */
  { DOC ("'sbx':[]"), "sbx: expected an object" },
  { SBX ("'mode':'write'"),
    "sbx.mode: unknown value \"write\" (expected one of: read-only, "
    "workspace-write, danger-full-access)" },
  { SBX ("'mode':'workspace-write'"),
    "sbx.workspace: required when sbx.mode is \"workspace-write\"" },
  { SBX ("'mode':'"
         "\\u0001\\u0001\\u0001\\u0001\\u0001\\u0001\\u0001\\u0001\\u0001\\u00"
         "01\\u0001\\u0001\\u0001\\u0001\\u0001\\u0001\\u0001\\u0001\\u0001\\u"
         "0001'"),
    "sbx.mode: unknown value "
    "\"\\u0001\\u0001\\u0001\\u0001\\u0001\\u0001\\u0001\\u0001\\u0001\\u0001"
    "\\u0001\\u0001...\" (expected one of: read-only, workspace-write, "
    "danger-full-access)" },
  { DOC ("'annotations':{'a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a."
         "a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.':1}"),
    "annotations[\"a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a."
    "a.a.a.a.a....\"]: expected a string" },
  { SBX ("'network':'éééééééééééééééééééééééééééééééééééééééé'"),
    "sbx.network: unknown value \"éééééééééééééééééééééééééééééééééé...\" "
    "(expected one of: deny, loopback, allow)" },
  { SBX ("'network':'€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€'"),
    "sbx.network: unknown value \"€€€€€€€€€€€€€€€€€€€€€€...\" (expected one "
    "of: deny, loopback, allow)" },
  { SBX ("'network':'a\\\"b\\\\c'"),
    "sbx.network: unknown value \"a\\\"b\\\\c\" (expected one of: deny, "
    "loopback, allow)" },
  { SBX ("'limits':{'wallClockSeconds':99999999999999999999999}"),
    "sbx.limits.wallClockSeconds: out of range (expected at most 4294967295 "
    "seconds)" },
  { SBX ("'limits':{'wallClockSeconds':18446744073709551.6150001}"),
    "sbx.limits.wallClockSeconds: out of range (expected at most 4294967295 "
    "seconds)" },
  { SBX ("'network':'none'"), "sbx.network: unknown value \"none\" (expected "
                              "one of: deny, loopback, allow)" },
  { SBX ("'requireEnforcement':true"),
    "sbx.requireEnforcement: expected a string" },
  { SBX ("'requireEnforcement':'most'"),
    "sbx.requireEnforcement: unknown value \"most\" (expected one of: none, "
    "partial, full)" },
  { SBX ("'workspace':''"), "sbx.workspace: expected a non-empty string" },
  { SBX ("'workspace':['/w']"), "sbx.workspace: expected a string" },
  { SBX ("'writableRoots':['/a','']"),
    "sbx.writableRoots[1]: expected a non-empty string" },
  { SBX ("'tempRoots':'/tmp'"),
    "sbx.tempRoots: expected an array of strings" },
  { SBX ("'env':'inherit'"), "sbx.env: expected an object" },
  { SBX ("'env':{'mode':'all'}"), "sbx.env.mode: unknown value \"all\" "
                                  "(expected one of: allow-list, inherit)" },
  { SBX ("'env':{'allow':['PATH','A=1']}"),
    "sbx.env.allow[1]: expected a variable name without '='" },
  { SBX ("'env':{'allow':['']}"),
    "sbx.env.allow[0]: expected a variable name without '='" },
  { SBX ("'protectedPaths':['.git','/etc']"),
    "sbx.protectedPaths[1]: expected a relative path such as \".git\"" },
  { SBX ("'protectedPaths':['']"),
    "sbx.protectedPaths[0]: expected a relative path such as \".git\"" },
  { SBX ("'protectedPaths':['./']"),
    "sbx.protectedPaths[0]: expected a relative path such as \".git\"" },
  { SBX ("'protectedPaths':['a/../../b']"),
    "sbx.protectedPaths[0]: must not contain \"..\"" },
  { SBX ("'protectedPaths':['..']"),
    "sbx.protectedPaths[0]: must not contain \"..\"" },
  { SBX ("'hardenedDefaults':'no'"),
    "sbx.hardenedDefaults: expected a boolean" },
  { SBX ("'aliasMasking':true"), "sbx.aliasMasking: expected an object" },
  { SBX ("'aliasMasking':{'enabled':0}"),
    "sbx.aliasMasking.enabled: expected a boolean" },
  { SBX ("'aliasMasking':{'maxEntries':0}"),
    "sbx.aliasMasking.maxEntries: out of range (expected 1 to 4294967295)" },
  { SBX ("'aliasMasking':{'maxDepth':65}"),
    "sbx.aliasMasking.maxDepth: out of range (expected 1 to 64)" },
  { SBX ("'limits':60"), "sbx.limits: expected an object" },
  { SBX ("'limits':{'wallClockSeconds':0}"),
    "sbx.limits.wallClockSeconds: expected a number greater than 0" },
  { SBX ("'limits':{'wallClockSeconds':0.0e5}"),
    "sbx.limits.wallClockSeconds: expected a number greater than 0" },
  { SBX ("'limits':{'wallClockSeconds':-1}"),
    "sbx.limits.wallClockSeconds: expected a number greater than 0" },
  { SBX ("'limits':{'wallClockSeconds':'60'}"),
    "sbx.limits.wallClockSeconds: expected a number greater than 0" },
  { SBX ("'limits':{'wallClockSeconds':4294967295.0001}"),
    "sbx.limits.wallClockSeconds: out of range (expected at most 4294967295 "
    "seconds)" },
  { SBX ("'limits':{'wallClockSeconds':1e999}"),
    "sbx.limits.wallClockSeconds: out of range (expected at most 4294967295 "
    "seconds)" },
  { SBX ("'limits':{'sampleIntervalMs':0}"),
    "sbx.limits.sampleIntervalMs: out of range (expected 1 to 60000)" },
  { SBX ("'limits':{'sampleIntervalMs':60001}"),
    "sbx.limits.sampleIntervalMs: out of range (expected 1 to 60000)" },
  { SBX ("'allowUserNamespaces':null,'allowUserNamespaces':1"),
    "sbx.allowUserNamespaces: duplicate key" },
  { SBX ("'allowUserNamespaces':'yes'"),
    "sbx.allowUserNamespaces: expected a boolean" },
  /* sbx-oci owns "sbx": a key no parser reads is a typo, refused with the
     nearest known one (issue 15).  */
  { SBX ("'requireEnforcment':'full'"),
    "sbx.requireEnforcment: unknown key, did you mean requireEnforcement?" },
  { SBX ("'hardenedDefault':false"),
    "sbx.hardenedDefault: unknown key, did you mean hardenedDefaults?" },
  { SBX ("'limits':{'wallClock':3}"),
    "sbx.limits.wallClock: unknown key, did you mean wallClockSeconds?" },
  { SBX ("'env':{'alow':['A']}"),
    "sbx.env.alow: unknown key, did you mean allow?" },
  { SBX ("'future':{'x':1}"), "sbx.future: unknown key: sbx-oci has no such "
                              "setting (see sbx-oci-config(5))" },
  /* JSON has no comments, and runc and crun refuse them.  */
  { "{/* c */}", "invalid JSON: lexical error: probable comment found in "
                 "input text, comments are not enabled. at line 1, column 1" },
  { "{'ociVersion':'1', // c\n 'root':{'path':'/'}}",
    "invalid JSON: lexical error: probable comment found in input text, "
    "comments are not enabled. at line 1, column 19" },
};

/* ' -> " so the tables above stay readable.  */
static char *
dequote (const char *s)
{
  char *d = strdup (s);
  for (char *p = d; *p; p++)
    if (*p == '\'')
      *p = '"';
  return d;
}

static int
parse (const char *sq_json, struct sbx_spec **out, struct sbx_error *err)
{
  char *json = dequote (sq_json);
  sbx_error_clear (err);
  int r = sbx_spec_parse (json, strlen (json), "/bundle", out, err);
  free (json);
  return r;
}

static void
test_error_table (void)
{
  for (size_t i = 0; i < sizeof error_cases / sizeof *error_cases; i++)
    {
      struct sbx_error err = { 0 };
      struct sbx_spec *spec = (struct sbx_spec *) 1;
      int r = parse (error_cases[i].json, &spec, &err);
      if (!tap_ok (r == -EINVAL && spec == NULL, "rejected: %s",
                   error_cases[i].want))
        printf ("# r=%d\n", r);
      tap_streq (err.msg, error_cases[i].want, "  message");
      /* A refusal, naming the field its line begins with (none for a
         document that is not JSON), for the exit status and the
         outcome's refusedFields.  */
      const char *want = error_cases[i].want, *sep = strstr (want, ": ");
      bool whole = strncmp (want, "invalid JSON", 12) == 0
                   || strncmp (want, "expected a JSON object", 22) == 0;
      char field[SBX_ERROR_FIELD_MAX] = "";
      if (!whole && sep)
        snprintf (field, sizeof field, "%.*s", (int) (sep - want), want);
      tap_ok (err.kind == SBX_ERROR_REFUSED, "  refused (kind %d)", err.kind);
      tap_streq (err.field, field, "  the field");
    }
}

/* The kernel takes at most 340 lines in a uid_map or gid_map.  */
static void
test_mapping_count (void)
{
  for (int n = 340; n <= 341; n++)
    {
      cleanup_free char *json = NULL;
      size_t size = 0;
      FILE *f = open_memstream (&json, &size);
      fputs ("{\"ociVersion\":\"1.2.0\",\"root\":{\"path\":\"rootfs\"},"
             "\"linux\":{\"uidMappings\":[",
             f);
      for (int i = 0; i < n; i++)
        fprintf (f, "%s{\"containerID\":%d,\"hostID\":%d,\"size\":1}",
                 i ? "," : "", i, 100000 + i);
      fputs ("]}}", f);
      fclose (f);
      struct sbx_error err = { 0 };
      struct sbx_spec *spec = NULL;
      int r = sbx_spec_parse (json, size, "/b", &spec, &err);
      if (n == 340)
        tap_ok (r == 0 && spec && spec->linux_.n_uid_mappings == 340,
                "340 uid mappings are taken (%s)", err.msg);
      else
        tap_streq (err.msg,
                   "linux.uidMappings[340]: more than 340 mappings, the "
                   "kernel's limit",
                   "341 uid mappings are refused");
      sbx_spec_free (spec);
    }
}

static void
test_special_errors (void)
{
  struct sbx_error err = { 0 };
  struct sbx_spec *spec = NULL;
  static const char with_nul[] = "{\"ociVersion\":\"1\"}\0junk";
  int r = sbx_spec_parse (with_nul, sizeof with_nul - 1, "/b", &spec, &err);
  tap_ok (r < 0 && spec == NULL, "a NUL byte after the object is refused");
  tap_streq (
      err.msg,
      "invalid JSON: parse error: trailing garbage at line 1, column 19",
      "  message");

  sbx_error_clear (&err);
  r = sbx_spec_parse ("{}", 2, "bundle", &spec, &err);
  tap_streq (err.msg, "bundle: expected an absolute path",
             "a relative bundle is a caller bug");

  char deep[300];
  memset (deep, '[', 129);
  strcpy (deep + 129, "]");
  sbx_error_clear (&err);
  r = sbx_spec_parse (deep, strlen (deep), "/b", &spec, &err);
  tap_streq (
      err.msg,
      "invalid JSON: nested deeper than 128 levels at line 1, column 129",
      "nesting is bounded before the tree is built");
  memset (deep, '[', 128);
  memset (deep + 128, ']', 128);
  deep[256] = '\0';
  sbx_error_clear (&err);
  sbx_spec_parse (deep, strlen (deep), "/b", &spec, &err);
  tap_streq (err.msg, "expected a JSON object at the top level",
             "128 levels are fine");
  test_mapping_count ();
}

static const char container_json[]
    = "{"
      "'ociVersion':'1.2.0','unknownTop':{'deep':[[{'x':1}]]},"
      "'root':{'path':'./rootfs/','readonly':true,'extra':1},"
      "'hostname':'box',"
      "'annotations':{'org.a':'1','b':'2'},"
      "'mounts':["
      " {'destination':'/proc','type':'proc','source':'proc'},"
      " {'destination':'/"
      "data','type':'bind','source':'data','options':['rbind','ro']},"
      " {'destination':'/"
      "tmp','type':'tmpfs','source':'tmpfs','options':['nosuid']},"
      " {'destination':'//abs/./','source':'/srv//x/','options':['bind']},"
      " {'destination':'/dev/shm','type':'tmpfs','source':'shm/rel'}],"
      "'process':{'terminal':true,'args':['sh','-c','true'],'env':['A=1','B=']"
      ","
      " 'cwd':'/"
      "work','user':{'uid':1000,'gid':4294967295,'umask':18,'additionalGids':["
      "5,6]},"
      " 'capabilities':{'bounding':['CAP_KILL'],'ambient':[]},"
      " 'rlimits':[{'type':'RLIMIT_NOFILE','hard':18446744073709551615,'soft':"
      "1024},"
      "           {'type':'RLIMIT_CORE','hard':0,'soft':0}],"
      " 'noNewPrivileges':true,'oomScoreAdj':-1000,'selinuxLabel':null},"
      "'linux':{'namespaces':[{'type':'pid'},{'type':'network','path':'/proc/"
      "1/ns/net'}],"
      " 'uidMappings':[{'containerID':0,'hostID':100000,'size':65536}],"
      " 'maskedPaths':['/proc/kcore'],'readonlyPaths':['/proc/sys'],"
      " 'seccomp':{'defaultAction':'SCMP_ACT_ERRNO','defaultErrnoRet':1,"
      "  'architectures':['SCMP_ARCH_X86_64'],'flags':[],"
      "  'syscalls':[{'names':['personality'],'action':'SCMP_ACT_ALLOW',"
      "   "
      "'args':[{'index':5,'value':18446744073709551615,'valueTwo':0,'op':'"
      "SCMP_CMP_EQ'}]},"
      "   "
      "{'names':['mkdir','rmdir'],'action':'SCMP_ACT_ERRNO','errnoRet':38}]},"
      " 'resources':{'memory':{'limit':-1,'swap':5},'pids':{'limit':"
      "9223372036854775807},'cpu':{'shares':1},"
      "  'blockIO':{'weight':500,'leafWeight':10,'weightDevice':[{'major':8,"
      "   'minor':16,'weight':300}],'throttleWriteIOPSDevice':[{'major':8,"
      "   'minor':0,'rate':2000},{'major':253,'minor':1,'rate':7}]},"
      "  'hugepageLimits':[{'pageSize':'2MB','limit':4194304},"
      "   {'pageSize':'1GB','limit':0}],"
      "  'network':{'classID':1048577,'priorities':[{'name':'eth0',"
      "   'priority':5}]}},"
      " 'cgroupsPath':'/sbx/"
      "c1','sysctl':{'net.ipv4.ip_forward':'0'},'rootfsPropagation':'rslave',"
      " 'mountLabel':'system_u:object_r:container_file_t:s0:c1,c2'},"
      "'hooks':{'prestart':[{'path':'/bin/"
      "a','args':['a','1'],'env':['X=1'],'timeout':5}],"
      " 'poststop':[{'path':'/bin/b'},{'path':'/bin/c'}]}"
      "}";

static void
check_container_top (const struct sbx_spec *s)
{
  tap_streq (s->oci_version, "1.2.0", "ociVersion");
  tap_streq (s->bundle, "/bundle", "bundle");
  tap_streq (s->root_path, "/bundle/rootfs", "relative root.path resolves");
  tap_ok (s->root_readonly && !sbx_spec_is_agent (s), "root.readonly");
  tap_streq (s->hostname, "box", "hostname");
  tap_ok (s->n_annotations == 2 && strcmp (s->annotations[0].key, "org.a") == 0
              && strcmp (s->annotations[1].value, "2") == 0,
          "annotations in file order");
  tap_ok (s->n_mounts == 5, "five mounts");
  const char *dests[] = { "/proc", "/data", "/tmp", "/abs", "/dev/shm" };
  bool in_order = true;
  for (size_t i = 0; i < 5 && s->n_mounts == 5; i++)
    in_order &= strcmp (s->mounts[i].destination, dests[i]) == 0;
  tap_ok (in_order, "mounts keep their order, destinations normalized");
  tap_streq (s->mounts[0].source, "proc", "non-bind source kept");
  tap_streq (s->mounts[1].source, "/bundle/data", "bind source resolves");
  tap_ok (s->mounts[1].options.n == 2, "mount options");
  tap_streq (s->mounts[3].source, "/srv/x", "bind by option, normalized");
  tap_ok (s->mounts[3].type == NULL, "absent type stays NULL");
  tap_streq (s->mounts[4].source, "shm/rel", "relative non-bind source kept");
  tap_ok (s->hooks.phase[SBX_HOOK_PRESTART].n == 1
              && s->hooks.phase[SBX_HOOK_PRESTART].v[0].timeout == 5
              && s->hooks.phase[SBX_HOOK_PRESTART].v[0].args.n == 2
              && s->hooks.phase[SBX_HOOK_POSTSTOP].n == 2
              && s->hooks.phase[SBX_HOOK_POSTSTOP].v[1].timeout == 0
              && s->hooks.phase[SBX_HOOK_POSTSTART].n == 0,
          "hooks");
}

static void
check_container_process (const struct sbx_spec *s)
{
  const struct sbx_process *p = &s->process;
  tap_ok (s->has_process && p->terminal && p->args.n == 3
              && strcmp (p->args.v[2], "true") == 0,
          "process.args");
  tap_ok (p->env.n == 2 && strcmp (p->env.v[1], "B=") == 0, "process.env");
  tap_streq (p->cwd, "/work", "process.cwd");
  tap_ok (p->user.uid == 1000 && p->user.gid == 4294967295u
              && p->user.has_umask && p->user.umask == 022
              && p->user.n_additional_gids == 2
              && p->user.additional_gids[1] == 6,
          "process.user");
  tap_ok (p->capabilities.present && p->capabilities.bounding.n == 1
              && p->capabilities.ambient.n == 0
              && p->capabilities.effective.n == 0,
          "process.capabilities");
  tap_ok (p->n_rlimits == 2 && p->rlimits[0].resource == RLIMIT_NOFILE
              && p->rlimits[0].hard == UINT64_MAX && p->rlimits[0].soft == 1024
              && strcmp (p->rlimits[1].type, "RLIMIT_CORE") == 0,
          "rlimits, uint64 max");
  tap_ok (p->no_new_privileges && p->has_oom_score_adj
              && p->oom_score_adj == -1000,
          "noNewPrivileges, oomScoreAdj");
  tap_ok (p->selinux_label == NULL && p->apparmor_profile == NULL,
          "selinuxLabel null, apparmorProfile absent: none");
}

static void
check_container_linux (const struct sbx_spec *s)
{
  const struct sbx_linux *lx = &s->linux_;
  tap_ok (s->has_linux && lx->n_namespaces == 2, "namespaces");
  const struct sbx_namespace *net = sbx_spec_namespace (s, SBX_NS_NETWORK);
  tap_ok (net && net->path && strcmp (net->path, "/proc/1/ns/net") == 0,
          "namespace path");
  tap_ok (sbx_spec_namespace (s, SBX_NS_USER) == NULL, "absent namespace");
  tap_ok (lx->n_uid_mappings == 1 && lx->uid_mappings[0].host_id == 100000
              && lx->uid_mappings[0].size == 65536 && lx->n_gid_mappings == 0,
          "id mappings");
  tap_ok (lx->masked_paths.n == 1 && lx->readonly_paths.n == 1,
          "masked and read-only paths");
  const struct sbx_seccomp *sc = lx->seccomp;
  tap_ok (sc && sc->has_default_errno_ret && sc->default_errno_ret == 1
              && sc->architectures.n == 1 && sc->n_syscalls == 2,
          "seccomp");
  tap_ok (
      sc && sc->syscalls[0].n_args == 1 && sc->syscalls[0].args[0].index == 5
          && sc->syscalls[0].args[0].value == UINT64_MAX
          && !sc->syscalls[0].has_errno_ret && sc->syscalls[1].has_errno_ret
          && sc->syscalls[1].errno_ret == 38 && sc->syscalls[1].names.n == 2,
      "seccomp rules, uint64 max argument");
  tap_ok (lx->resources.has_memory_limit && lx->resources.memory_limit == -1
              && lx->resources.pids_limit == INT64_MAX,
          "resources");
  const struct sbx_block_io *b = &lx->resources.tuning.block_io;
  tap_ok (b->weight == 500 && b->leaf_weight == 10 && b->n_weight_devices == 1
              && b->weight_devices[0].major == 8
              && b->weight_devices[0].minor == 16
              && b->weight_devices[0].weight == 300
              && b->weight_devices[0].leaf_weight == 0,
          "blockIO weights");
  tap_ok (b->n_throttle[SBX_BLKIO_WRITE_IOPS] == 2
              && b->throttle[SBX_BLKIO_WRITE_IOPS][1].major == 253
              && b->throttle[SBX_BLKIO_WRITE_IOPS][1].rate == 7
              && b->n_throttle[SBX_BLKIO_READ_BPS] == 0,
          "blockIO throttles, each in its own list");
  const struct sbx_resources_tuning *t = &lx->resources.tuning;
  tap_ok (t->n_hugepage_limits == 2
              && strcmp (t->hugepage_limits[0].page_size, "2MB") == 0
              && t->hugepage_limits[0].limit == 4194304
              && strcmp (t->hugepage_limits[1].page_size, "1GB") == 0
              && t->hugepage_limits[1].limit == 0,
          "hugepageLimits");
  tap_ok (t->network.has_class_id && t->network.class_id == 1048577
              && t->network.n_priorities == 1
              && strcmp (t->network.priorities[0].name, "eth0") == 0
              && t->network.priorities[0].priority == 5,
          "network");
  tap_ok (lx->n_sysctl == 1 && strcmp (lx->cgroups_path, "/sbx/c1") == 0
              && strcmp (lx->rootfs_propagation, "rslave") == 0,
          "sysctl, cgroupsPath, rootfsPropagation");
  tap_ok (lx->mount_label
              && strcmp (lx->mount_label,
                         "system_u:object_r:container_file_t:s0:c1,c2")
                     == 0,
          "mountLabel, as given");
}

/* linux.devices: each entry as given, paths normalized, OCI's defaults
   (fileMode 0666 as runc takes it, uid and gid 0), "u" read as "c", and a
   fileMode with the node's format bits (podman's) taken for its
   permission bits.  */
static void
test_devices (void)
{
  struct sbx_error err = { 0 };
  cleanup_spec struct sbx_spec *s = NULL;
  int r = parse (LINUX ("'devices':[{'path':'/dev//myzero','type':'c',"
                        "'major':1,'minor':5,'fileMode':8608,'uid':12,"
                        "'gid':34},{'path':'/dev/fifo','type':'p','major':9},"
                        "{'path':'/dev/disk','type':'b','major':8,"
                        "'minor':0},{'path':'/dev/u','type':'u',"
                        "'major':1,'minor':3}]"),
                 &s, &err);
  if (!tap_ok (r == 0 && s != NULL, "linux.devices parses"))
    {
      printf ("# %s\n", err.msg);
      return;
    }
  const struct sbx_linux *lx = &s->linux_;
  const struct sbx_device *d = lx->devices;
  tap_ok (lx->n_devices == 4, "linux.devices: four entries");
  if (lx->n_devices != 4)
    return;
  tap_streq (d[0].path, "/dev/myzero", "linux.devices: path normalized");
  tap_ok (d[0].type == 'c' && d[0].major == 1 && d[0].minor == 5
              && d[0].file_mode == 0640 && d[0].uid == 12 && d[0].gid == 34,
          "linux.devices: a character device as given");
  tap_ok (d[1].type == 'p' && d[1].major == 0 && d[1].minor == 0
              && d[1].file_mode == 0666 && d[1].uid == 0 && d[1].gid == 0,
          "linux.devices: a FIFO, with the defaults");
  tap_ok (d[2].type == 'b' && d[2].major == 8 && d[2].minor == 0,
          "linux.devices: a block device");
  tap_ok (d[3].type == 'c' && d[3].major == 1 && d[3].minor == 3,
          "linux.devices: \"u\" (unbuffered) is a character device");
}

static void
test_container (void)
{
  struct sbx_error err = { 0 };
  cleanup_spec struct sbx_spec *s = NULL;
  int r = parse (container_json, &s, &err);
  if (!tap_ok (r == 0 && s != NULL, "container config parses"))
    {
      printf ("# %s\n", err.msg);
      return;
    }
  check_container_top (s);
  check_container_process (s);
  check_container_linux (s);
  tap_ok (!s->ext.present && s->ext.hardened_defaults && s->ext.alias_masking
              && s->ext.alias_max_entries == SBX_ALIAS_MAX_ENTRIES_DEFAULT
              && s->ext.alias_max_depth == SBX_ALIAS_MAX_DEPTH_DEFAULT
              && s->ext.sample_interval_ms == SBX_SAMPLE_INTERVAL_MS_DEFAULT
              && s->ext.require_enforcement == SBX_LEVEL_NONE
              && s->ext.mode == SBX_MODE_UNSET && s->ext.wall_clock_ms == 0
              && !s->ext.protected_paths_set,
          "absent sbx extension: defaults");
}

static const char agent_json[]
    = "{"
      "'ociVersion':'1.2.0','root':{'path':'/'},"
      "'process':{'args':['codex'],'cwd':'/repo'},"
      "'sbx':{'mode':'workspace-write','workspace':'../repo/',"
      " 'writableRoots':['/var//cache/','out'],'tempRoots':['/tmp/sbx'],"
      " 'network':'loopback','env':{'mode':'inherit','allow':['PATH','HOME']},"
      " 'protectedPaths':['.git','./a//b/'],'hardenedDefaults':false,"
      " 'aliasMasking':{'enabled':false,'maxEntries':1,'maxDepth':64},"
      " 'requireEnforcement':'full','limits':{'wallClockSeconds':1.1,'"
      "sampleIntervalMs':60000},"
      " 'allowUserNamespaces':true}"
      "}";

static void
test_agent (void)
{
  struct sbx_error err = { 0 };
  cleanup_spec struct sbx_spec *s = NULL;
  int r = parse (agent_json, &s, &err);
  if (!tap_ok (r == 0 && s != NULL, "agent config parses"))
    {
      printf ("# %s\n", err.msg);
      return;
    }
  struct sbx_ext *e = &s->ext;
  tap_ok (sbx_spec_is_agent (s) && !s->has_linux && s->n_mounts == 0,
          "root \"/\" is the agent case");
  tap_ok (e->present && e->mode == SBX_MODE_WORKSPACE_WRITE, "sbx.mode");
  tap_streq (e->workspace, "/repo", "workspace resolves against bundle");
  tap_ok (e->writable_roots.n == 2, "writableRoots");
  tap_streq (e->writable_roots.v[0], "/var/cache", "absolute root normalized");
  tap_streq (e->writable_roots.v[1], "/bundle/out", "relative root resolves");
  tap_streq (e->temp_roots.v[0], "/tmp/sbx", "tempRoots");
  tap_ok (e->network == SBX_NET_LOOPBACK && e->env_mode == SBX_ENV_INHERIT
              && e->env_allow.n == 2,
          "network, env");
  tap_ok (e->protected_paths_set && e->protected_paths.n == 2,
          "protectedPaths set");
  tap_streq (e->protected_paths.v[1], "a/b", "protected path normalized");
  tap_ok (!e->hardened_defaults && !e->alias_masking
              && e->alias_max_entries == 1 && e->alias_max_depth == 64,
          "hardenedDefaults, aliasMasking");
  tap_ok (e->require_enforcement == SBX_LEVEL_FULL
              && e->sample_interval_ms == 60000 && e->allow_user_namespaces,
          "requireEnforcement, sampleIntervalMs, allowUserNamespaces");
  tap_ok (e->wall_clock_ms == 1100, "1.1 s is exactly 1100 ms (got %llu)",
          (unsigned long long) e->wall_clock_ms);
}

static void
check_wall_clock (const char *seconds, uint64_t want_ms)
{
  char json[256];
  struct sbx_error err = { 0 };
  cleanup_spec struct sbx_spec *s = NULL;
  snprintf (json, sizeof json,
            DOC ("'sbx':{'limits':{'wallClockSeconds':%s}}"), seconds);
  parse (json, &s, &err);
  tap_ok (s && s->ext.wall_clock_ms == want_ms,
          "wallClockSeconds %s -> %llu ms (got %llu; %s)", seconds,
          (unsigned long long) want_ms,
          (unsigned long long) (s ? s->ext.wall_clock_ms : 0), err.msg);
}

static void
test_small_cases (void)
{
  check_wall_clock ("60", 60000);
  check_wall_clock ("0.0001", 1);
  check_wall_clock ("1e-300", 1);
  check_wall_clock ("2.5e3", 2500000);
  check_wall_clock ("0.0015", 2);
  check_wall_clock ("1.0010", 1001);
  check_wall_clock ("4294967295", 4294967295000ull);
  check_wall_clock ("1E+1", 10000);

  struct sbx_error err = { 0 };
  cleanup_spec struct sbx_spec *s = NULL;
  parse (DOC ("'sbx':{'protectedPaths':[]},'process':null,'mounts':null,"
              "'linux':{'uidMappings':[],'namespaces':[]}"),
         &s, &err);
  tap_ok (s && s->ext.present && s->ext.protected_paths_set
              && s->ext.protected_paths.n == 0 && !s->has_process,
          "empty protectedPaths is set; null reads as absent (%s)", err.msg);
  tap_ok (s && s->has_linux && s->linux_.namespaces == NULL
              && s->linux_.n_namespaces == 0,
          "empty arrays allocate nothing");
  sbx_spec_free (steal_pointer (&s));
  parse (USER ("'additionalGids':[]"), &s, &err);
  tap_ok (s && s->process.user.n_additional_gids == 0
              && !s->process.user.has_umask,
          "empty additionalGids, no umask (%s)", err.msg);

  /* What only a cgroup holds: values that ask for nothing are none.  */
  sbx_spec_free (steal_pointer (&s));
  parse (LINUX ("'resources':{'cpu':{'shares':0,'quota':-1,'period':0,"
                "'cpus':''},'memory':{'swap':-1},'blockIO':{"
                "'throttleReadBpsDevice':[{'major':8,'minor':0,'rate':0}]},"
                "'devices':[{'allow':false,'access':'rwm'}]}"),
         &s, &err);
  tap_ok (s && sbx_tuning_cgroup_only (&s->linux_.resources.tuning) == NULL,
          "no-op values and device rules need no cgroup (%s)", err.msg);
  sbx_spec_free (steal_pointer (&s));
  parse (LINUX ("'resources':{'cpu':{'shares':0,'quota':50000}}"), &s, &err);
  tap_streq (s ? sbx_tuning_cgroup_only (&s->linux_.resources.tuning) : "",
             "linux.resources.cpu.quota", "a quota needs a cgroup");
  sbx_spec_free (steal_pointer (&s));
  parse (LINUX ("'resources':{'network':{'priorities':[{'name':'lo',"
                "'priority':0}]}}"),
         &s, &err);
  tap_streq (s ? sbx_tuning_cgroup_only (&s->linux_.resources.tuning) : "",
             "linux.resources.network", "so do network priorities");

  tap_streq (sbx_mode_name (SBX_MODE_DANGER_FULL_ACCESS), "danger-full-access",
             "mode name");
  tap_streq (sbx_mode_name (SBX_MODE_UNSET), "unset", "unset mode name");
  tap_streq (sbx_mode_name (SBX_MODE_READ_ONLY), "read-only", "mode name");
  tap_streq (sbx_mode_name (SBX_MODE_WORKSPACE_WRITE), "workspace-write",
             "mode name");
  tap_streq (sbx_net_name (SBX_NET_LOOPBACK), "loopback", "net name");
  tap_streq (sbx_net_name (SBX_NET_ALLOW), "allow", "net name");
  tap_streq (sbx_level_name (SBX_LEVEL_FULL), "full", "level name");
  tap_streq (sbx_net_name (SBX_NET_DENY), "deny", "net name");
  tap_streq (sbx_net_name (SBX_NET_UNSET), "unset", "unset net name");
  tap_streq (sbx_level_name (SBX_LEVEL_PARTIAL), "partial", "level name");
  tap_streq (sbx_level_name (SBX_LEVEL_NONE), "none", "level none name");
}

static void
write_file (const char *path, const char *text)
{
  FILE *f = fopen (path, "w");
  if (f)
    {
      fputs (text, f);
      fclose (f);
    }
}

/* getcwd fails once the working directory is gone.  */
static void
test_load_without_cwd (void)
{
  char dir[] = "/tmp/sbx-test-cwd-XXXXXX", cwd[256];
  struct sbx_error err = { 0 };
  struct sbx_spec *s = NULL;
  if (!tap_ok (getcwd (cwd, sizeof cwd) && mkdtemp (dir) && chdir (dir) == 0,
               "a temporary cwd to remove"))
    return;
  rmdir (dir);
  int r = sbx_spec_load ("b", &s, &err);
  tap_ok (r == -ENOENT && s == NULL, "relative bundle without a cwd");
  tap_streq (err.msg,
             "cannot make bundle b absolute: No such file or directory",
             "  message");
  if (chdir (cwd) < 0)
    perror ("chdir");
}

static void
test_load (void)
{
  char dir[] = "/tmp/sbx-test-spec-XXXXXX", path[256], want[512];
  struct sbx_error err = { 0 };
  struct sbx_spec *s = NULL;
  if (!tap_ok (mkdtemp (dir) != NULL, "temporary bundle"))
    return;
  snprintf (path, sizeof path, "%s/config.json", dir);

  int r = sbx_spec_load (dir, &s, &err);
  snprintf (want, sizeof want, "%s: does not exist (check --bundle)", path);
  tap_ok (r == -ENOENT, "missing config.json");
  tap_streq (err.msg, want, "  message");

  mkdir (path, 0700);
  sbx_error_clear (&err);
  sbx_spec_load (dir, &s, &err);
  snprintf (want, sizeof want, "%s: not a regular file", path);
  tap_streq (err.msg, want, "config.json that is a directory");
  rmdir (path);

  int fd = open (path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  tap_ok (fd >= 0 && ftruncate (fd, (16 << 20) + 1) == 0, "sparse big file");
  close (fd);
  sbx_error_clear (&err);
  r = sbx_spec_load (dir, &s, &err);
  snprintf (want, sizeof want, "%s: larger than 16 MiB", path);
  tap_ok (r == -EFBIG, "too big");
  tap_streq (err.msg, want, "  message");

  unlink (path);
  if (tap_ok (symlink ("config.json", path) == 0, "self-referencing link"))
    {
      sbx_error_clear (&err);
      sbx_spec_load (dir, &s, &err);
      snprintf (want, sizeof want, "%s: cannot open: %s", path,
                strerror (ELOOP));
      tap_streq (err.msg, want, "unopenable config.json: strerror");
      unlink (path);
    }

  write_file (path, "{\"ociVersion\":\"1\",\"root\":{\"path\":1}}");
  sbx_error_clear (&err);
  sbx_spec_load (dir, &s, &err);
  snprintf (want, sizeof want, "%s: root.path: expected a string", path);
  tap_streq (err.msg, want, "parse errors carry the file's path");

  /* Bigger than the first read buffer (64 KiB).  */
  enum
  {
    big = 200 * 1024
  };
  static char text[big + 100];
  int n = sprintf (text, "{\"ociVersion\":\"1\",\"root\":{\"path\":\"/\"},"
                         "\"annotations\":{\"a\":\"");
  memset (text + n, 'x', big);
  strcpy (text + n + big, "\"}}");
  write_file (path, text);
  sbx_error_clear (&err);
  r = sbx_spec_load (dir, &s, &err);
  tap_ok (r == 0 && s && strlen (s->annotations[0].value) == big,
          "a 200 KiB config loads whole (%s)", err.msg);
  sbx_spec_free (steal_pointer (&s));

  write_file (path, "{\"ociVersion\":\"1\",\"root\":{\"path\":\"rootfs\"}}");
  char cwd[256];
  if (getcwd (cwd, sizeof cwd) && chdir ("/tmp") == 0)
    {
      sbx_error_clear (&err);
      r = sbx_spec_load (dir + strlen ("/tmp/"), &s, &err);
      tap_ok (r == 0 && s && strcmp (s->bundle, dir) == 0,
              "relative bundle made absolute (%s)", err.msg);
      snprintf (want, sizeof want, "%s/rootfs", dir);
      tap_streq (s ? s->root_path : NULL, want, "root.path under the bundle");
      sbx_spec_free (s);
      if (chdir (cwd) < 0)
        perror ("chdir");
    }
  unlink (path);
  rmdir (dir);
  test_load_without_cwd ();
}

/* Keys outside "sbx" that no parser reads are kept, as OCI asks, and
   named: the outcome's ignoredFields.  */
static void
test_ignored (void)
{
  struct sbx_error err = { 0 };
  cleanup_spec struct sbx_spec *s = NULL;
  int r = parse (DOC ("'linux':{'personality':{'domain':'LINUX'}},"
                      "'process':{'args':['a'],'cwd':'/','bogus':1},"
                      "'annotations':{'free.form':'x'}"),
                 &s, &err);
  if (!tap_ok (r == 0, "unknown keys outside sbx parse"))
    printf ("# %s\n", err.msg);
  tap_ok (s && s->ignored.n == 2
              && strv_contains (&s->ignored, "linux.personality")
              && strv_contains (&s->ignored, "process.bogus"),
          "  and are listed as ignored (annotations' keys are not)");
}

int
main (void)
{
  test_ignored ();
  test_error_table ();
  test_special_errors ();
  test_container ();
  test_devices ();
  test_agent ();
  test_small_cases ();
  test_load ();
  return tap_done ();
}
