# kexp plot; run `gnuplot cost_vs_n_gaussian.gp` here to redraw cost_vs_n_gaussian.svg
set terminal svg size 1000,664 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_gaussian.svg'
set title 'time against n: gaussian on friedman1'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 6
set label 100 'primal_ridge: lambda=0.1' at screen 0.01, screen 0.0542 left font ',12'
set label 101 'Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0211 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set logscale x
set logscale y
set arrow 1 from 1000, graph 0 to 1000, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 1 'n = D = 1000' at 1000, graph 0.96 left offset 0.5,0 font ',12' textcolor rgb '#444444'
$line0 << EOD
1000 0.0359036635 0.022530335999999998 0.052362716000000004
4000 0.07833997999999999 0.07362514099999999 0.08983024099999999
16000 0.424709153 0.42325314500000005 0.43073455800000005
40000 0.903782541 0.903699283 0.906402156
100000 2.248038265 2.248002337 2.248374199
1000000 26.280493935499997 26.280168249 26.280819622
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'primal_ridge (primal)'
