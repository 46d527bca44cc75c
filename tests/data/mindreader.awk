# The original AWK mind-reading machine, quoted verbatim as TEST DATA.
# Source: LiteratePrograms, "Mind reading machine (AWK)" (its noweb chunks,
# assembled in the order of its root chunk <<mindreader.awk>>). The only
# change: two non-breaking spaces of the web page are plain spaces here.
# Reference implementation for tests/test_mindreader.py; run under mawk by
# tests/mindreader_awk.py. Not part of Retro: the port is
# literate/mindreader.md.
BEGIN	{
	print "+--------------------------------------------------------------+"
	print "| An AWKward mind-reading machine                              |"
	print "|         (this retrogame inspired by the Bell Labs Memo:      |"
	print "|          Shannon, 1953, 'A Mind-Reading (?) Machine')        |"
	print "+--------------------------------------------------------------+"
	print "Shall we play a game?"
	print "Tell me either 'heads' or 'tails'."
	print "If I guess what you picked, I win.  Otherwise, you win."
	print "The match goes for 100 rounds, or until one player is up by 20."
	printf "your play? "
	}
#BEGIN	{ "date +%s" | getline seed; srand(seed) }
BEGIN	{ t = 0 }
NR > 2	{
	case = (hpa!=hca)"/"(hpa!=hpb)"/"(hpb!=hcb)
	t = tally[case]
	}
t < -1	{ guess=!hpb }
t == -1 { guess=(int(rand()+.75)?!hpb:hpb) }
t == 0	{ guess=int(rand()+.5) }
t == 1  { guess=(int(rand()+.75)?hpb:!hpb) }
t > 1	{ guess= hpb }
/^[hH]/		{ play=1 }
/^[tT]/		{ play=0 }
/^[^hHtT]/	{ printf "heads or tails? "; next }
	{
	printf "You played " (play?"heads":"tails")
	printf "; I guessed " (guess?"heads":"tails")
	printf ".  "(play==guess?"I":"You")" win. "
	print "("(pw+=(play!=guess))"-"(cw+=(play==guess))")"
	}
NR > 2	{ tally[case] += (hpb == play ? 1 : -1) }
	{
	hpa = hpb; hpb = play
	hca = hcb; hcb = guess
	}
cw+pw==100	{ printf (cw>pw?"I":"You")" won the match "
		  print  "by "(cw>pw?cw-pw:pw-cw)" games."
		  exit }
pw-cw==20	{ print "You win -- up by 20"; exit }
cw-pw==20	{ print "I win -- up by 20"; exit }
		{ printf "? " }
END	{ 
	print " T H A N K   Y O U   F O R   P L A Y I N G "
	}
