# kexp plot; run `gnuplot cost_vs_n_gaussian_features_1000.gp` here to redraw cost_vs_n_gaussian_features_1000.svg
set terminal svg size 1000,664 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_gaussian_features_1000.svg'
set title 'time against n: gaussian features=1000 on blobs'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 6
set label 100 'svc: bias = regularized.' at screen 0.01, screen 0.0542 left font ',12'
set label 101 'A primal solver and its dual counterpart share a colour: primal solid, dual dashed. Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0211 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('250' 250, '500' 500, '1000' 1000, '2000' 2000, '4000' 4000, '10000' 10000, '20000' 20000, '40000' 40000, '100000' 100000)
set logscale x
set logscale y
set arrow 1 from 17906.022521365227, graph 0 to 17906.022521365227, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 1 'crossover: n ≈ 1.791e+04 (3102 … 1.837e+04)' at 17906.022521365227, graph 0.895 right offset -0.5,0 font ',12' textcolor rgb '#222222'
set label 50 '' at 17906.022521365227, 0.5143810262054929 point pt 7 ps 1.2 lc rgb '#444444'
set arrow 2 from 1000, graph 0 to 1000, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 2 'n = D = 1000' at 1000, graph 0.960 left offset 0.5,0 font ',12' textcolor rgb '#222222'
$line0 << EOD
250 0.002707251 0.002583646 0.003959977
500 0.005379490999999999 0.005110875 0.008705510999999999
1000 0.011805622500000001 0.011282932 0.022074559
2000 0.0185813665 0.018053298 0.049792226
4000 0.055478368 0.034413598 0.088556408
10000 0.25778192 0.236315099 0.283949577
20000 0.586468789 0.58642149 0.587404802
40000 1.4081632615 1.394259564 1.4227636849999998
100000 3.50718925 3.506996124 3.524076926
EOD
$line1 << EOD
250 0.00047896099999999997 0.00045680000000000004 0.000630574
500 0.0012998950000000001 0.001227815 0.001777933
1000 0.0052422729999999996 0.004866974 0.006496833
2000 0.0091694715 0.008646959000000001 0.012265388
4000 0.037386550500000004 0.031835454 0.043048974
10000 0.168857472 0.16877978000000002 0.172971972
20000 0.635514875 0.631813115 0.642512473
40000 2.6263420639999997 2.6261435509999997 2.6265405769999997
100000 21.345316704000002 21.345316704000002 21.345316704000002
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'linear_svc (primal)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'svc (dual)'
