# kexp plot; run `gnuplot cost_vs_D_cubic.gp` here to redraw cost_vs_D_cubic.svg
set terminal svg size 1000,924 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_D_cubic.svg'
set title 'time against the feature dimension D: cubic, n = 1600 training points'
set xlabel 'D (feature dimension of the kernel''s map)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 8
set label 100 'cubic: d=10, noise=0.1, standardize=false, test_fraction=0.2' at screen 0.01, screen 0.0866 left font ',12'
set label 101 'dual_gd: alpha=0, tolerance=0' at screen 0.01, screen 0.0628 left font ',12'
set label 102 'primal_gd: alpha=0, tolerance=0' at screen 0.01, screen 0.0390 left font ',12'
set label 103 'A primal solver and its dual counterpart share a colour: primal solid, dual dashed. Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0152 left font ',12'
set key above maxcols 1 width 2
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('11' 11, '66' 66, '286' 286, '1000' 1001, '3000' 3003)
set logscale x
set logscale y
set arrow 1 from 1600, graph 0 to 1600, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 1 'D = n = 1600' at 1600, graph 0.96 right offset -0.5,0 font ',12' textcolor rgb '#444444'
set arrow 2 from 2964.9338329266848, graph 0 to 2964.9338329266848, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 2 'crossover primal_gd / dual_gd iterations=1 (polynomial): D ≈ 2965 (1777 … beyond the swept n)' at 2964.9338329266848, 0.06470384635449355 right point pt 7 ps 1.2 lc rgb '#444444' offset -1,1 font ',12' textcolor rgb '#222222'
set arrow 3 from 2008.2921856606317, graph 0 to 2008.2921856606317, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 3 'crossover primal_gd / dual_gd iterations=10 (polynomial): D ≈ 2008 (1496 … 2777)' at 2008.2921856606317, 0.048147182244029085 right point pt 7 ps 1.2 lc rgb '#444444' offset -1,1 font ',12' textcolor rgb '#222222'
set arrow 4 from 1323.3581567079643, graph 0 to 1323.3581567079643, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 4 'crossover primal_gd / dual_gd iterations=100 (polynomial): D ≈ 1323 (1282 … 1485)' at 1323.3581567079643, 0.10014085395293501 right point pt 7 ps 1.2 lc rgb '#444444' offset -1,1 font ',12' textcolor rgb '#222222'
set arrow 5 from 1336.5364191387462, graph 0 to 1336.5364191387462, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 5 'crossover primal_gd / dual_gd iterations=1000 (polynomial): D ≈ 1337 (1331 … 1354)' at 1336.5364191387462, 0.7558773639569071 right point pt 7 ps 1.2 lc rgb '#444444' offset -1,1 font ',12' textcolor rgb '#222222'
$line0 << EOD
11 0.007857866 0.007598807 0.022703774
66 0.013736578 0.012813122000000001 0.036046926
286 0.014537535 0.013665372000000002 0.021399806
1001 0.016310818499999997 0.015920508 0.03399706
3003 0.065759876 0.064634313 0.085414276
EOD
$line1 << EOD
11 0.011111473 0.010700515 0.032319436
66 0.019908725999999998 0.019128600000000003 0.043913208999999995
286 0.022024178000000002 0.021141777999999996 0.028752747000000002
1001 0.0250376575 0.023725647 0.04244325
3003 0.07025195199999999 0.069567755 0.089426656
EOD
$line2 << EOD
11 0.0452684735 0.044285656 0.060763278000000004
66 0.08565046399999998 0.08520277799999999 0.10561847099999999
286 0.096380905 0.095846391 0.10275532400000001
1001 0.0909229975 0.090672954 0.107828273
3003 0.13295600100000002 0.13282590300000002 0.148608063
EOD
$line3 << EOD
11 0.713715802 0.713456152 0.728991582
66 0.7627617019999999 0.7622483419999999 0.784798203
286 0.762712971 0.762192715 0.771214956
1001 0.7490546995 0.748819425 0.7669442870000001
3003 0.775315685 0.775217107 0.793047991
EOD
$line4 << EOD
11 0.00014256 0.000109227 0.000824421
66 0.000416098 0.00038827299999999996 0.0038531090000000004
286 0.002085827 0.001939357 0.003013652
1001 0.007844342 0.007334215 0.010443429
3003 0.06632786700000001 0.064990326 0.09505048800000002
EOD
$line5 << EOD
11 0.000170744 0.00016933 0.000662245
66 0.000653698 0.00061403 0.0041400610000000004
286 0.003046524 0.002874437 0.004009726
1001 0.013496530500000001 0.011292125 0.016591542
3003 0.100398837 0.098971634 0.12936655
EOD
$line6 << EOD
11 0.000804381 0.00076632 0.0012514380000000001
66 0.0032387690000000003 0.0031732920000000003 0.006720773
286 0.013331754 0.012974715 0.016686629
1001 0.062746892 0.062479665 0.064564019
3003 0.394930311 0.39351680699999997 0.42629929699999997
EOD
$line7 << EOD
11 0.007143636 0.007042073 0.007822279
66 0.03228088899999999 0.030688929 0.037214184
286 0.110662423 0.110617808 0.111537218
1001 0.440168407 0.43993645700000006 0.443166248
3003 3.436086098 3.434706425 3.4664925839999996
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'dual_gd (dual) · polynomial iterations=1', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'dual_gd (dual) · polynomial iterations=10', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 2 lc rgb '#009E73' title 'dual_gd (dual) · polynomial iterations=100', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 2 lc rgb '#CC79A7' title 'dual_gd (dual) · polynomial iterations=1000', \
     $line4 using 1:2:3:4 with yerrorlines lw 1.5 pt 12 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'primal_gd (primal) · polynomial iterations=1', \
     $line5 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'primal_gd (primal) · polynomial iterations=10', \
     $line6 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#009E73' title 'primal_gd (primal) · polynomial iterations=100', \
     $line7 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#CC79A7' title 'primal_gd (primal) · polynomial iterations=1000'
