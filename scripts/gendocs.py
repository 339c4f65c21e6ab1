#!/usr/bin/env python3
"""gendocs.py SIM WHAT [ARGS] - the reference text of dcqcn-sim, written from
what the program itself prints: `dcqcn-sim --help`, `dcqcn-sim COMMAND --help`
(the option tables of sim/cli/, through options.c) and `dcqcn-sim keys` (the
key table, models/scenario/keytable.c).  So `keys`, `--help`, the manual's
reference pages, the man pages and the shell completion never disagree.

WHAT:
  check ROOT     the generated blocks of ROOT/docs/commands.md and
                 ROOT/docs/scenario.md equal what SIM prints now (exit 1 with a
                 diff and the command that regenerates them when not)
  write ROOT     regenerate those blocks in place
  man1 OUT [--datadir D]   dcqcn-sim(1), roff
  man5 OUT       dcqcn-sim-scenario(5), roff
  bash OUT       the bash completion script
  zsh OUT        the zsh completion function (_dcqcn-sim)
A generated block of a Markdown page sits between the lines
<!-- BEGIN generated: NAME --> and <!-- END generated: NAME -->; the rest of
the page is written by hand.
"""
import difflib
import os
import re
import subprocess
import sys

REGENERATE = 'python3 scripts/gendocs.py build/dcqcn-sim write .'
HELP_INDENT = ' ' * 16  # a help text's next lines (options.c, HELP_INDENT)
PAGES = (('docs/commands.md', 'commands'), ('docs/scenario.md', 'keys'))


def out_of(sim, *args):
    r = subprocess.run([sim] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if r.returncode != 0:
        sys.exit('gendocs: %s %s exited %d: %s' % (sim, ' '.join(args), r.returncode,
                                                     r.stderr.strip()))
    return r.stdout


# ---- what the program prints, read back ----

class Help:
    """a command's --help: usage (before options:), options, tail"""

    def __init__(self, name, text):
        self.name, self.text = name, text
        head, _, rest = text.partition('options:\n')
        self.usage = head
        self.options = []  # (synopsis, [text lines])
        lines = rest.split('\n')
        i = 0
        while i < len(lines):
            line = lines[i]
            if line.startswith('  -'):
                m = re.match(r'^  (\S.*?)(?:  +(\S.*))?$', line)
                self.options.append((m.group(1), [m.group(2) or '']))
            elif line.startswith(HELP_INDENT) and self.options:
                self.options[-1][1].append(line.strip())
            else:
                break
            i += 1
        self.tail = '\n'.join(lines[i:])

    def usage_lines(self):
        """the synopsis lines (up to the first blank line)"""
        return self.usage.split('\n\n')[0].split('\n')

    def description(self):
        return self.usage.split('\n\n', 1)[1] if '\n\n' in self.usage else ''

    def option_names(self):
        """[(name, arg or None)] of every spelling the help shows"""
        out = []
        for syn, _ in self.options:
            for part in syn.split(', '):
                words = part.split()
                if words and words[0].startswith('-'):
                    out.append((words[0], words[1] if len(words) > 1 else None))
        return out


class Program:
    def __init__(self, sim):
        self.sim = sim
        self.overview = out_of(sim, '--help')
        self.commands = []  # (name, one-line description)
        desc = self.overview.split('\n\n')[1]
        for line in desc.split('\n'):
            m = re.match(r'^([a-z][a-z-]*) +(\S.*)$', line)
            if m:
                self.commands.append([m.group(1), m.group(2)])
            elif line.strip() and self.commands:
                self.commands[-1][1] += ' ' + line.strip()
        self.helps = [Help(c, out_of(sim, c, '--help')) for c, _ in self.commands]
        self.keys_text = out_of(sim, 'keys')
        self.version = out_of(sim, '--version').strip()

    def overview_usage(self):
        return [l[2:] for l in self.overview.split('\n\n')[0].split('\n')[1:]]

    def overview_exit(self):
        return self.overview.split('Exit status: ', 1)[1].strip()

    def sections(self):
        """(header comment lines, [(section name, text of its block)])"""
        blocks = self.keys_text.split('\n\n')
        header = blocks[0]
        out = []
        for b in blocks[1:]:
            first, _, rest = b.partition('\n')
            out.append((first.strip('[]'), b))
        return header, out

    def keys(self):
        """[(key, default text, [detail lines])] in the order keys prints them"""
        out = []
        for line in self.keys_text.split('\n'):
            if not line or line.startswith(('#', '[')):
                continue
            if line.startswith('    '):
                out[-1][2].append(line.strip())
                continue
            m = re.match(r'^(\S+)(?: = (.*)| \((.*)\))?$', line)
            out.append((m.group(1), m.group(2) if m.group(2) is not None else
                        '(%s)' % m.group(3) if m.group(3) else '', []))
        return out


# ---- Markdown blocks ----

def md_commands(p):
    out = ['The text of `dcqcn-sim --help` and of each command\'s `--help`, as this '
           'version prints it.', '', '### Overview', '', '```text', p.overview.rstrip('\n'),
           '```']
    for h in p.helps:
        out += ['', '### %s' % h.name, '', '```text', h.text.rstrip('\n'), '```']
    return out


def md_keys(p):
    header, sections = p.sections()
    out = ['The text of `dcqcn-sim keys`, section by section, as this version prints it '
           '(`dcqcn-sim keys SECTION` prints one).', '', '```text', header, '```']
    for name, text in sections:
        out += ['', '### [%s]' % name, '', '```text', text.rstrip('\n'), '```']
    return out


BLOCK = re.compile(r'(<!-- BEGIN generated: (\w+) -->\n)(.*?)(<!-- END generated: \2 -->)',
                   re.S)


def regenerate(text, name, lines):
    found = []

    def sub(m):
        if m.group(2) != name:
            return m.group(0)
        found.append(1)
        return m.group(1) + '\n'.join(lines) + '\n' + m.group(4)
    new = BLOCK.sub(sub, text)
    if not found:
        sys.exit('gendocs: no <!-- BEGIN generated: %s --> block' % name)
    return new


def pages(p, root):
    gen = {'commands': md_commands(p), 'keys': md_keys(p)}
    for rel, name in PAGES:
        path = os.path.join(root, rel)
        with open(path, encoding='utf-8') as f:
            old = f.read()
        yield rel, path, old, regenerate(old, name, gen[name])


# ---- roff ----

def roff_text(s):
    s = s.replace('\\', '\\e').replace('-', '\\-')
    return s


def roff_lines(text):
    """plain help text as filled roff paragraphs (a blank line: .PP)"""
    out = []
    for para in text.strip('\n').split('\n\n'):
        if not para.strip():
            continue
        if out:
            out.append('.PP')
        for line in para.split('\n'):
            line = roff_text(line.strip())
            if line.startswith(('.', "'")):
                line = '\\&' + line
            out.append(line)
    return out


def roff_verbatim(lines):
    out = ['.PP', '.nf', '.RS 4']
    for l in lines:
        l = roff_text(l)
        out.append('\\&' + l if l.startswith(('.', "'")) or not l.strip() else l)
    return out + ['.RE', '.fi']


def roff_option(syn):
    parts = []
    for part in syn.split(', '):
        words = part.split(' ', 1)
        s = '\\fB%s\\fR' % roff_text(words[0])
        if len(words) > 1:
            s += ' \\fI%s\\fR' % roff_text(words[1])
        parts.append(s)
    return ', '.join(parts)


def man1(p, datadir):
    ver = p.version
    out = ['.\\" generated by scripts/gendocs.py from dcqcn-sim --help; do not edit',
           '.TH DCQCN\\-SIM 1 "" "%s" "User Commands"' % roff_text(ver),
           '.SH NAME',
           'dcqcn\\-sim \\- packet\\-level simulator of lossless RoCEv2 fabrics',
           '.SH SYNOPSIS']
    out += roff_verbatim(p.overview_usage())
    out += ['.SH DESCRIPTION',
            '\\fBdcqcn\\-sim\\fR simulates lossless RoCEv2 fabrics for distributed AI '
            'training packet by packet: leaf\\-spine, fat\\-tree, star, rail\\-optimized '
            'and file\\-described fabrics, switches with a shared buffer, PFC, a PFC '
            'watchdog and WRED/ECN marking, NICs running DCQCN, NCCL collectives, '
            'storage traffic and faults.',
            'A scenario file (\\fBdcqcn\\-sim\\-scenario\\fR(5)) describes the fabric '
            'and its traffic; a run writes CSV time series and, with \\fB\\-\\-plot\\fR, '
            'gnuplot figures into its run directory.',
            '.SH COMMANDS']
    for (name, what), h in zip(p.commands, p.helps):
        out += ['.SS %s' % roff_text(name)]
        out += roff_lines(what)
        out += roff_verbatim(h.usage_lines())
        out += ['.PP'] + roff_lines(h.description())
        for syn, lines in h.options:
            out += ['.TP', roff_option(syn)] + roff_lines('\n'.join(lines))
        if h.tail.strip():
            out += ['.PP'] + roff_lines(h.tail)
    out += ['.SH EXIT STATUS'] + roff_lines(p.overview_exit())
    out += ['.PP', 'Each command\'s own statuses are under \\fBCOMMANDS\\fR.',
            '.SH ENVIRONMENT',
            '.TP', '.B DCQCN_SIM_PLOTS',
            'the folder of the gnuplot scripts (\\fI*.gp\\fR), instead of the '
            'installed ones.',
            '.TP', '.BR OMPI_COMM_WORLD_SIZE ", " PMIX_RANK ", " PMI_RANK',
            'set by \\fBmpirun\\fR: a build with MPI (\\fB\\-Dmpi=enabled\\fR) then '
            'spreads a sweep\'s points over the ranks.',
            '.SH FILES',
            '.TP', '.I %s/plots/' % roff_text(datadir),
            'the gnuplot scripts of the figures (found beside the program, '
            '\\fI../share/dcqcn\\-sim/plots\\fR, first).',
            '.TP', '.I %s/scenarios/' % roff_text(datadir),
            'the teaching scenarios, each with a header saying what it shows; the '
            'default scenario is also compiled into the program.',
            '.TP', '.I results/NAME/',
            'the default run directory of \\fBdcqcn\\-sim run NAME.ini\\fR.',
            '.SH EXAMPLES']
    out += roff_verbatim([
        'dcqcn-sim run --plot',
        'dcqcn-sim run %s/scenarios/pause-storm.ini -o storm --set pfcwd.enable=false --plot'
        % datadir,
        'dcqcn-sim check %s/scenarios/default.ini' % datadir,
        'dcqcn-sim sweep %s/scenarios/default.ini --vary ecn.kmin=50KB,150KB,300KB -j 2'
        % datadir,
        'dcqcn-sim calibrate -j 2',
        'dcqcn-sim keys ecn'])
    out += ['.SH SEE ALSO', '\\fBdcqcn\\-sim\\-scenario\\fR(5), \\fBgnuplot\\fR(1)']
    return '\n'.join(out) + '\n'


FORMAT_5 = """\
A scenario is an INI file: [section] lines, key = value lines, and comments
that start with # or ; (on their own line, or after a value preceded by white
space). Names are case-sensitive; a section or key given twice in one file is
an error. [job.NAME] and [fault.NAME] sections are named (letters, digits, -
and _); several jobs run at once, and a job's or fault's keys depend on its
pattern or kind.

Every key has a default: a scenario names only what it changes. The same keys
are set on the command line with --set section.key=value (job.NAME.key,
fault.NAME.key), applied after the file in order.

Values with units are parsed exactly into integers, never through a float:
sizes B KB MB GB (1 KB = 1000 B) and KiB MiB GiB; rates bps Kbps Mbps Gbps
Tbps; times ps ns us ms s; lengths m; fractions 10% or 0.1. A value that is
not a whole number of the base unit (byte, picosecond, millimetre) is an
error, as is a missing unit. A bare [dcqcn] number is in the NVIDIA firmware
unit.

Host sets (ranks, senders, dst, targets, initiators) are host indices: all,
a range 0-63, or a list 0,2,4-7. Hosts are named h0, h1, ...; switches leaf0,
spine1 (leaf-spine, rail-optimized), edge5, agg2, core0 (fat-tree), sw0
(star), or the names of a links file. A trace file or topology.file resolves
against the scenario file's folder.

Unknown sections and keys, missing units, values out of range and
contradictions stop the load (exit status 2) with one message naming the file
and line, the key, and the valid range or the conflicting key, e.g.
scenarios/x.ini:4: topology.leaves: 0 out of range (1-1024)."""


def man5(p):
    ver = p.version
    out = ['.\\" generated by scripts/gendocs.py from dcqcn-sim keys; do not edit',
           '.TH DCQCN\\-SIM\\-SCENARIO 5 "" "%s" "File Formats"' % roff_text(ver),
           '.SH NAME',
           'dcqcn\\-sim\\-scenario \\- the scenario files of dcqcn\\-sim',
           '.SH SYNOPSIS',
           '.nf',
           '[\\fIsection\\fR]',
           '\\fIkey\\fR = \\fIvalue\\fR    # comment',
           '.fi',
           '.SH DESCRIPTION']
    out += roff_lines(FORMAT_5)
    out += ['.SH KEYS', 'Each key with its default, its meaning, the values it takes '
            'and, when it applies only to some scenarios, where; \\fBdcqcn\\-sim keys\\fR '
            'prints the same.']
    header, sections = p.sections()
    for name, text in sections:
        out.append('.SS [%s]' % roff_text(name))
        for line in text.split('\n')[1:]:
            if not line.strip():
                continue
            if not line.startswith(' '):
                out += ['.TP', '\\fB%s\\fR' % roff_text(line)]
            else:
                l = roff_text(line.strip())
                if l.startswith(('.', "'")):
                    l = '\\&' + l
                if out[-1].startswith('\\fB'):
                    out.append(l)
                else:
                    out += ['.br', l]
    out += ['.SH EXAMPLES']
    out += roff_verbatim(['[topology]', 'kind = leaf-spine', 'spines = 4', '',
                          '[ecn]', 'kmin = 400KB', 'kmax = 1600KB', '',
                          '[job.train]', 'pattern = ring-allreduce', 'ranks = all',
                          'size = 128MB', 'iterations = 3'])
    out += ['.SH SEE ALSO', '\\fBdcqcn\\-sim\\fR(1)']
    return '\n'.join(out) + '\n'


# ---- bash completion ----

def shell_words(words):
    return ' '.join(words)


def enum_values(details):
    """the values a key's 'values:' line lists (a | b | c, or auto), or []"""
    for d in details:
        if d.startswith('values: '):
            v = d[len('values: '):]
            if ' | ' in v:
                return [w for w in re.split(r' \| ', re.sub(r' \(.*\)$', '', v)) if
                        re.match(r'^[\w.-]+$', w)]
            if v.startswith('auto'):
                return ['auto']
            if v.startswith('none'):
                return ['none']
    return []


def bash(p):
    keys = p.keys()
    out = ['# bash completion of dcqcn-sim: commands, options, scenario files, and the keys',
           '# of --set, --vary and --tune with their values.  Generated by',
           '# scripts/gendocs.py from dcqcn-sim --help and dcqcn-sim keys; do not edit.',
           '',
           '_dcqcn_sim_commands="%s"' % shell_words(c for c, _ in p.commands),
           '_dcqcn_sim_keys="%s"' % shell_words(k for k, _, _ in keys),
           '_dcqcn_sim_sections="%s"' % shell_words(n.split('.')[0] for n, _ in p.sections()[1]),
           '',
           '# the options of COMMAND, and those that take a value',
           '_dcqcn_sim_options() {',
           '\tcase $1 in']
    for h in p.helps:
        names = h.option_names()
        out.append('\t%s) opts="%s"; valued="%s" ;;' % (
            h.name, shell_words(n for n, _ in names),
            shell_words(n for n, a in names if a)))
    out += ['\t*) opts=""; valued="" ;;', '\tesac', '}', '',
            '# the values KEY takes, when it lists them',
            '_dcqcn_sim_values() {', '\tcase $1 in']
    for k, _, details in keys:
        vals = enum_values(details)
        if vals:
            pat = k.replace('NAME', '*')
            out.append('\t%s) echo "%s" ;;' % (pat, shell_words(vals)))
    fabrics = []
    for k, _, details in keys:
        if k == 'fabric.type':
            fabrics = enum_values(details)
    out += ['\tesac', '}', '', '_dcqcn_sim_fabrics="%s"' % shell_words(fabrics)]
    benches = re.search(r'nccl-tests (\S+)', p.overview).group(1).split('|')
    out += ['_dcqcn_sim_benchmarks="%s"' % shell_words(benches), '']
    out += BASH_BODY.split('\n')
    return '\n'.join(out)


BASH_BODY = r'''# the keys that match a word: job.x.size matches job.NAME.size
_dcqcn_sim_match_keys() {
	local cur=$1 k name rest
	if [[ $cur == job.*.* || $cur == fault.*.* ]]; then
		name=${cur#*.}; name=${name%%.*}
		for k in $_dcqcn_sim_keys; do
			[[ $k == "${cur%%.*}".NAME.* ]] || continue
			rest=${k#*.NAME.}
			[[ ${cur%%.*}.$name.$rest == "$cur"* ]] && echo "${cur%%.*}.$name.$rest"
		done
		return
	fi
	for k in $_dcqcn_sim_keys; do
		[[ $k == "$cur"* ]] && echo "$k"
	done
}

_dcqcn_sim() {
	local line=${COMP_LINE:0:$COMP_POINT}
	local cur=${line##*[[:space:]]}
	local -a words
	read -r -a words <<<"${line% "$cur"}"
	[[ -z $cur ]] && read -r -a words <<<"$line"
	local n=${#words[@]} prev=${words[n-1]} cmd=${words[1]} opts valued
	local -a cands=()
	COMPREPLY=()
	if ((n < 2)); then
		mapfile -t cands < <(compgen -W "$_dcqcn_sim_commands --help --version" -- "$cur")
	else
		_dcqcn_sim_options "$cmd"
		case " $valued " in
		*" $prev "*)
			case $prev in
			--set | --vary | --tune)
				if [[ $cur == *=* ]]; then
					local key=${cur%%=*} v
					for v in $(_dcqcn_sim_values "$key"); do
						[[ $key=$v == "$cur"* ]] && cands+=("$key=$v")
					done
				else
					mapfile -t cands < <(_dcqcn_sim_match_keys "$cur")
					((${#cands[@]} == 1)) && [[ ${cands[0]} != *.NAME.* ]] && cands=("${cands[0]}=") && compopt -o nospace 2>/dev/null
				fi
				;;
			--format) mapfile -t cands < <(compgen -W "png svg pdf" -- "$cur") ;;
			--fabric | --fabrics) mapfile -t cands < <(compgen -W "$_dcqcn_sim_fabrics" -- "$cur") ;;
			-o | --out | --export | --merge) compopt -o filenames 2>/dev/null
				mapfile -t cands < <(compgen -d -- "$cur") ;;
			--stress | --switch-config | --nic-config) compopt -o filenames 2>/dev/null
				mapfile -t cands < <(compgen -f -- "$cur") ;;
			esac
			;;
		*)
			if [[ $cur == -* ]]; then
				mapfile -t cands < <(compgen -W "$opts" -- "$cur")
			elif [[ $cmd == keys ]]; then
				mapfile -t cands < <(compgen -W "$_dcqcn_sim_sections" -- "$cur")
			elif [[ $cmd == nccl-tests && $n == 2 ]]; then
				mapfile -t cands < <(compgen -W "$_dcqcn_sim_benchmarks" -- "$cur")
			elif [[ $cmd == plot ]]; then
				compopt -o filenames 2>/dev/null
				mapfile -t cands < <(compgen -d -- "$cur")
			else
				compopt -o filenames 2>/dev/null
				mapfile -t cands < <(compgen -f -X '!*.ini' -- "$cur"; compgen -d -- "$cur")
			fi
			;;
		esac
	fi
	# bash splits the word at '=' and ':' (COMP_WORDBREAKS): give it what
	# follows the last of them
	local pre=${cur%"${cur##*[=:]}"} c
	for c in "${cands[@]}"; do
		COMPREPLY+=("${c#"$pre"}")
	done
}
complete -F _dcqcn_sim dcqcn-sim'''


def zsh(p):
    """the zsh completion function, from the same tables as bash's"""
    keys = p.keys()

    def arr(words):
        return '(%s)' % ' '.join("'%s'" % w for w in words)
    out = ['#compdef dcqcn-sim',
           '# zsh completion of dcqcn-sim: commands, options, scenario files, and the keys',
           '# of --set, --vary and --tune with their values.  Generated by',
           '# scripts/gendocs.py from dcqcn-sim --help and dcqcn-sim keys; do not edit.',
           '',
           'local -a _dcqcn_sim_commands=%s' % arr(c for c, _ in p.commands),
           'local -a _dcqcn_sim_keys=%s' % arr(k for k, _, _ in keys),
           'local -a _dcqcn_sim_sections=%s' % arr(n.split('.')[0] for n, _ in p.sections()[1]),
           'local -A _dcqcn_sim_opts _dcqcn_sim_valued _dcqcn_sim_values']
    for h in p.helps:
        names = h.option_names()
        out.append("_dcqcn_sim_opts[%s]='%s'" % (h.name, ' '.join(n for n, _ in names)))
        out.append("_dcqcn_sim_valued[%s]='%s'" % (h.name, ' '.join(n for n, a in names if a)))
    fabrics = []
    for k, _, details in keys:
        vals = enum_values(details)
        if vals:
            out.append("_dcqcn_sim_values[%s]='%s'" % (k, ' '.join(vals)))
        if k == 'fabric.type':
            fabrics = vals
    benches = re.search(r'nccl-tests (\S+)', p.overview).group(1).split('|')
    out += ['local -a _dcqcn_sim_fabrics=%s' % arr(fabrics),
            'local -a _dcqcn_sim_benchmarks=%s' % arr(benches), '']
    return '\n'.join(out) + ZSH_BODY


ZSH_BODY = r"""local cur=$words[CURRENT] prev=$words[CURRENT-1] cmd=$words[2]
if (( CURRENT == 2 )); then
	compadd -- $_dcqcn_sim_commands --help --version
	return
fi
local -a opts valued
opts=(${=_dcqcn_sim_opts[$cmd]})
valued=(${=_dcqcn_sim_valued[$cmd]})
if (( ${valued[(Ie)$prev]} )); then
	case $prev in
	--set | --vary | --tune)
		local sec name key norm
		if [[ $cur == *=* ]]; then
			key=${cur%%=*}
			norm=$key
			[[ $key == (job|fault).*.* ]] && norm=${key%%.*}.NAME.${key#*.*.}
			compadd -P "$key=" -- ${=_dcqcn_sim_values[$norm]}
		elif [[ $cur == (job|fault).*.* ]]; then
			sec=${cur%%.*}
			name=${${cur#*.}%%.*}
			compadd -S '=' -- ${${(M)_dcqcn_sim_keys:#$sec.NAME.*}/.NAME./.$name.}
		else
			compadd -S '=' -- $_dcqcn_sim_keys
		fi
		;;
	--format) compadd -- png svg pdf ;;
	--fabric | --fabrics) compadd -- $_dcqcn_sim_fabrics ;;
	-o | --out | --export | --merge) _files -/ ;;
	--stress | --switch-config | --nic-config) _files ;;
	esac
	return
fi
if [[ $cur == -* ]]; then
	compadd -- $opts
	return
fi
case $cmd in
keys) compadd -- $_dcqcn_sim_sections ;;
nccl-tests)
	if (( CURRENT == 3 )); then compadd -- $_dcqcn_sim_benchmarks; else _files -g '*.ini'; fi ;;
plot) _files -/ ;;
*) _files -g '*.ini' ;;
esac
"""


# ---- main ----

def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    sim, what = argv[1], argv[2]
    p = Program(sim)
    if what in ('check', 'write'):
        root = argv[3]
        bad = 0
        for rel, path, old, new in pages(p, root):
            if old == new:
                print('%s: the generated blocks are up to date' % rel)
                continue
            if what == 'write':
                with open(path, 'w', encoding='utf-8') as f:
                    f.write(new)
                print('%s: regenerated' % rel)
                continue
            bad += 1
            print('FAIL: %s differs from what %s prints (- the page, + the program):' %
                  (rel, sim))
            for d in list(difflib.unified_diff(old.split('\n'), new.split('\n'), rel, 'new',
                                               lineterm='', n=1))[:40]:
                print('  ' + d)
            print('regenerate it with: %s' % REGENERATE)
        return 1 if bad else 0
    out = argv[3]
    datadir = '/usr/local/share/dcqcn-sim'
    if '--datadir' in argv:
        datadir = argv[argv.index('--datadir') + 1]
    text = {'man1': lambda: man1(p, datadir), 'man5': lambda: man5(p),
            'bash': lambda: bash(p) + '\n', 'zsh': lambda: zsh(p)}[what]()
    with open(out, 'w', encoding='utf-8') as f:
        f.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
