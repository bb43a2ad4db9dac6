# kexp plot; run `gnuplot cost_vs_D_hmm_min_length_20_max_length_20.gp` here to redraw cost_vs_D_hmm_min_length_20_max_length_20.svg
set terminal svg size 1000,924 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_D_hmm_min_length_20_max_length_20.svg'
set title 'time against the feature dimension D: hmm, n = 400 training points'
set xlabel 'D (feature dimension of the kernel''s map)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 8
set label 100 'hmm: max_length=20, min_length=20, model_seed=1, models=2, separation=0.25, standardize=false, states=3, symbols=4,' at screen 0.01, screen 0.0866 left font ',12'
set label 101 'test_fraction=0.2' at screen 0.01, screen 0.0628 left font ',12'
set label 102 'A primal solver and its dual counterpart share a colour: primal solid, dual dashed. Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0390 left font ',12'
set label 103 'n = 400 is above every D drawn.' at screen 0.01, screen 0.0152 left font ',12'
set key above maxcols 1 width 0 font ',12'
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('4' 4, '16' 16, '64' 64, '256' 256)
set logscale x
set logscale y
$line0 << EOD
4 0.0014505553333333332 0.001309397 0.003882596
16 0.004954075333333334 0.004765386999999999 0.012055660000000001
64 0.009241293666666666 0.008972517 0.02478392
256 0.011979706833333333 0.008595803 0.03664592
EOD
$line1 << EOD
4 0.001443853 0.001298213 0.003878559
16 0.004992103666666667 0.004792588 0.008216185
64 0.009329961 0.009061383 0.025226666000000002
256 0.011978023499999999 0.008588489000000001 0.032712278
EOD
$line2 << EOD
4 0.001452717 0.00129604 0.0038788380000000003
16 0.004989268 0.004766499 0.008110926000000001
64 0.009319331333333335 0.009061455999999999 0.024882355
256 0.0119554925 0.00848342 0.032693010999999994
EOD
$line3 << EOD
4 0.0014201516666666667 0.001270282 0.007032015
16 0.006829479333333333 0.004752132 0.013629617
64 0.013379526666666667 0.009095909 0.030612627
256 0.013880967166666666 0.008492447 0.038165805
EOD
$line4 << EOD
4 8.745666666666668e-05 7.1886e-05 0.000213172
16 0.00017461433333333337 0.000135646 0.000293006
64 0.00021535166666666666 0.000170762 0.000391391
256 0.0010577409999999998 0.000935718 0.003835916
EOD
$line5 << EOD
4 8.741933333333335e-05 7.1826e-05 0.000212802
16 0.000174578 0.000135586 0.000293555
64 0.00021497133333333335 0.00017303700000000002 0.000369368
256 0.0009534673333333332 0.0008822389999999999 0.0038426209999999996
EOD
$line6 << EOD
4 8.7433e-05 7.1877e-05 0.000212671
16 0.00017518233333333334 0.00013699800000000002 0.00029261299999999994
64 0.0002140026666666667 0.000171603 0.000379568
256 0.0009425926666666667 0.0008619109999999999 0.00366353
EOD
$line7 << EOD
4 8.740966666666667e-05 7.185500000000001e-05 0.00021262300000000003
16 0.00017459099999999998 0.000135566 0.000292594
64 0.00021417866666666665 0.00017312700000000002 0.00038662
256 0.0009510156666666667 0.000870227 0.003674732
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'kernel_ridge_classifier (dual) · spectrum normalize=true lambda=0.001', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'kernel_ridge_classifier (dual) · spectrum normalize=true lambda=0.01', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 2 lc rgb '#009E73' title 'kernel_ridge_classifier (dual) · spectrum normalize=true lambda=0.1', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 2 lc rgb '#CC79A7' title 'kernel_ridge_classifier (dual) · spectrum normalize=true lambda=1', \
     $line4 using 1:2:3:4 with yerrorlines lw 1.5 pt 12 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'primal_ridge (primal) · spectrum normalize=true lambda=0.001', \
     $line5 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'primal_ridge (primal) · spectrum normalize=true lambda=0.01', \
     $line6 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#009E73' title 'primal_ridge (primal) · spectrum normalize=true lambda=0.1', \
     $line7 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#CC79A7' title 'primal_ridge (primal) · spectrum normalize=true lambda=1'
